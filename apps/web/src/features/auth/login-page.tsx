import { ArrowLeftOutlined, LockOutlined, MailOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Checkbox, Flex, Form, Input } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { ApiError } from '../../lib/api.ts';
import { notify } from '../../lib/notify.ts';
import { lazyZodRule } from '../../lib/zod-rule.ts';
import { LOGIN_FAIL_MESSAGES, useForgotPassword, useLogin } from './api.ts';
import { AuthCard } from './auth-card.tsx';

// Shown once a reset mail is sent: antd's Result carries its status pictures, which a cold /login
// should not download. It starts loading when the forgot form opens.
const schemas = () => import('./auth-schemas.ts');
const emailRule = lazyZodRule(() => schemas().then((m) => m.loginBody.shape.email));
const passRule = lazyZodRule(() => schemas().then((m) => m.loginBody.shape.pass));
const forgotEmailRule = lazyZodRule(() => schemas().then((m) => m.forgotPasswordBody.shape.email));

const loadConfirmation = () => import('./forgot-confirmation.tsx');
const Confirmation = lazy(() => loadConfirmation().then((m) => ({ default: m.Confirmation })));

type View = { step: 'login' } | { step: 'forgot' } | { step: 'confirm'; email: string };

interface LoginValues {
  email: string;
  pass: string;
  remember: boolean;
}

function LoginForm({ onForgot, onSubmit }: { onForgot: () => void; onSubmit?: () => void }) {
  const login = useLogin();
  const submit = (values: LoginValues) => {
    // The home screen's code downloads while the password is checked.
    onSubmit?.();
    // Success stores the session; the signed-out-only guard of /login then takes the user home.
    login.mutate(
      { email: values.email, pass: values.pass, remember: values.remember },
      {
        onError: (error) => {
          if (
            error instanceof ApiError &&
            (LOGIN_FAIL_MESSAGES as readonly string[]).includes(error.message)
          ) {
            notify('error', 'Login Fail!', "Username or Password isn't correct.");
          }
        },
      },
    );
  };

  return (
    <Form<LoginValues>
      layout="vertical"
      requiredMark={false}
      initialValues={{ email: '', pass: '', remember: false }}
      onFinish={submit}
      disabled={login.isPending}
    >
      <Form.Item label="Username" name="email" rules={[emailRule]}>
        <Input prefix={<UserOutlined />} autoComplete="username" autoFocus size="large" />
      </Form.Item>
      <Form.Item label="Password" name="pass" rules={[passRule]}>
        <Input.Password prefix={<LockOutlined />} autoComplete="current-password" size="large" />
      </Form.Item>
      <Flex justify="space-between" align="center" style={{ marginBottom: 24 }}>
        <Form.Item name="remember" valuePropName="checked" noStyle>
          <Checkbox>Remember me</Checkbox>
        </Form.Item>
        <Button type="link" onClick={onForgot} style={{ paddingInline: 0 }}>
          Forgot Password?
        </Button>
      </Flex>
      <Button type="primary" htmlType="submit" size="large" block loading={login.isPending}>
        Log in
      </Button>
    </Form>
  );
}

function ForgotForm({ onBack, onSent }: { onBack: () => void; onSent: (email: string) => void }) {
  const forgot = useForgotPassword();
  const submit = ({ email }: { email: string }) =>
    forgot.mutate(email, { onSuccess: () => onSent(email.trim()) });

  return (
    <>
      <Flex align="center" gap={8} style={{ marginBottom: 16 }}>
        <Button type="text" icon={<ArrowLeftOutlined />} onClick={onBack} aria-label="Back to login" />
        <h2 className="auth-title">Forgot Password?</h2>
      </Flex>
      <Form<{ email: string }>
        layout="vertical"
        requiredMark={false}
        initialValues={{ email: '' }}
        onFinish={submit}
        disabled={forgot.isPending}
      >
        <Form.Item label="Email" name="email" rules={[forgotEmailRule]}>
          <Input prefix={<MailOutlined />} autoComplete="email" autoFocus size="large" />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={forgot.isPending}>
          Submit
        </Button>
      </Form>
    </>
  );
}

/** `onSubmit`: called as the form is sent (the app preloads the first signed-in screen then). */
export function LoginPage({ onSubmit }: { onSubmit?: () => void }) {
  const [view, setView] = useState<View>({ step: 'login' });
  const toLogin = () => setView({ step: 'login' });

  return (
    <AuthCard>
      {view.step === 'login' && (
        <LoginForm
          onSubmit={onSubmit}
          onForgot={() => {
            void loadConfirmation();
            setView({ step: 'forgot' });
          }}
        />
      )}
      {view.step === 'forgot' && (
        <ForgotForm onBack={toLogin} onSent={(email) => setView({ step: 'confirm', email })} />
      )}
      {view.step === 'confirm' && (
        <Suspense fallback={null}>
          <Confirmation email={view.email} onDone={toLogin} />
        </Suspense>
      )}
    </AuthCard>
  );
}
