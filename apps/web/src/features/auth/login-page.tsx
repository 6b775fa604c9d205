import {
  ArrowLeftOutlined,
  CheckCircleFilled,
  LockOutlined,
  MailOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { forgotPasswordBody, loginBody } from '@ev/shared';
import { Button, Checkbox, Flex, Form, Input, Result, Typography } from 'antd';
import { useState } from 'react';
import { ApiError } from '../../lib/api.ts';
import { notify } from '../../lib/notify.ts';
import { zodRule } from '../../lib/zod-rule.ts';
import { LOGIN_FAIL_MESSAGES, useForgotPassword, useLogin } from './api.ts';
import { AuthCard } from './auth-card.tsx';

type View = { step: 'login' } | { step: 'forgot' } | { step: 'confirm'; email: string };

interface LoginValues {
  email: string;
  pass: string;
  remember: boolean;
}

function LoginForm({ onForgot }: { onForgot: () => void }) {
  const login = useLogin();
  const submit = (values: LoginValues) =>
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

  return (
    <Form<LoginValues>
      layout="vertical"
      requiredMark={false}
      initialValues={{ email: '', pass: '', remember: false }}
      onFinish={submit}
      disabled={login.isPending}
    >
      <Form.Item label="Username" name="email" rules={[zodRule(loginBody.shape.email)]}>
        <Input prefix={<UserOutlined />} autoComplete="username" autoFocus size="large" />
      </Form.Item>
      <Form.Item label="Password" name="pass" rules={[zodRule(loginBody.shape.pass)]}>
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
        <Typography.Title level={4} style={{ margin: 0 }}>
          Forgot Password?
        </Typography.Title>
      </Flex>
      <Form<{ email: string }>
        layout="vertical"
        requiredMark={false}
        initialValues={{ email: '' }}
        onFinish={submit}
        disabled={forgot.isPending}
      >
        <Form.Item label="Email" name="email" rules={[zodRule(forgotPasswordBody.shape.email)]}>
          <Input prefix={<MailOutlined />} autoComplete="email" autoFocus size="large" />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={forgot.isPending}>
          Submit
        </Button>
      </Form>
    </>
  );
}

function Confirmation({ email, onDone }: { email: string; onDone: () => void }) {
  return (
    <Result
      icon={<CheckCircleFilled />}
      status="success"
      title="Email is correct!"
      subTitle={
        <>
          A link to set a new password has been sent to <Typography.Text strong>{email}</Typography.Text>.
          Please open it within one hour to verify.
        </>
      }
      extra={
        <Button type="primary" size="large" onClick={onDone}>
          Ok, got it!
        </Button>
      }
    />
  );
}

export function LoginPage() {
  const [view, setView] = useState<View>({ step: 'login' });
  const toLogin = () => setView({ step: 'login' });

  return (
    <AuthCard>
      {view.step === 'login' && <LoginForm onForgot={() => setView({ step: 'forgot' })} />}
      {view.step === 'forgot' && (
        <ForgotForm onBack={toLogin} onSent={(email) => setView({ step: 'confirm', email })} />
      )}
      {view.step === 'confirm' && <Confirmation email={view.email} onDone={toLogin} />}
    </AuthCard>
  );
}
