import { ArrowLeftOutlined, LockOutlined } from '@ant-design/icons';
import { PASSWORD_MAX, PASSWORD_MESSAGES, resetPasswordValue } from '@ev/shared';
import { Button, Flex, Form, Input, Result } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useSuccessPopup } from '../../components/success-popup.ts';
import { sameAsRules, zodRule } from '../../lib/zod-rule.ts';
import { useResetPassword } from './api.ts';
import { AuthCard } from './auth-card.tsx';

interface ResetValues {
  pass: string;
  confirm: string;
}

/**
 * The set-password page of every mailed link (reset and invitation). A member's link (`&app=member`) sets the
 * password of an account of the charging app: the page then sends the member back to the app, not to the back
 * office's sign-in. The server judges the token alone; the parameter only chooses what the page says.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const forMember = params.get('app') === 'member';
  const navigate = useNavigate();
  const reset = useResetPassword();
  const showSuccess = useSuccessPopup();
  const [done, setDone] = useState(false);

  // A missing token is sent as '' on purpose: the server's 400 is what the user should see.
  const submit = ({ pass }: ResetValues) =>
    reset.mutate(
      { emailToken: params.get('token') ?? '', pass },
      {
        onSuccess: () => {
          setDone(true);
          void showSuccess();
        },
      },
    );

  if (done) {
    return (
      <AuthCard>
        <Result
          status="success"
          title="Changed Successfully."
          subTitle={
            forMember ? 'Sign in to the EV Charging app with your email and the new password.' : undefined
          }
          extra={
            forMember ? undefined : (
              <Button type="primary" size="large" onClick={() => navigate('/login')}>
                Sign in
              </Button>
            )
          }
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard>
      <Flex align="center" gap={8} style={{ marginBottom: 16 }}>
        {/* The back office's sign-in is no place for a member. */}
        {!forMember && (
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            onClick={() => navigate('/login')}
            aria-label="Back to login"
          />
        )}
        <h2 className="auth-title">Reset password</h2>
      </Flex>
      <Form<ResetValues>
        layout="vertical"
        requiredMark={false}
        initialValues={{ pass: '', confirm: '' }}
        onFinish={submit}
        disabled={reset.isPending}
      >
        <Form.Item label="New password" name="pass" rules={[zodRule(resetPasswordValue)]}>
          <Input.Password
            prefix={<LockOutlined />}
            autoComplete="new-password"
            maxLength={PASSWORD_MAX}
            autoFocus
            size="large"
          />
        </Form.Item>
        <Form.Item
          label="Confirm new password"
          name="confirm"
          dependencies={['pass']}
          rules={sameAsRules('pass', PASSWORD_MESSAGES.confirmRequired, PASSWORD_MESSAGES.resetConfirm)}
        >
          <Input.Password
            prefix={<LockOutlined />}
            autoComplete="new-password"
            maxLength={PASSWORD_MAX}
            size="large"
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={reset.isPending}>
          Reset password
        </Button>
      </Form>
    </AuthCard>
  );
}
