import { CheckCircleFilled } from '@ant-design/icons';
import { Button, Result, Typography } from 'antd';

/** After 'Forgot Password?': the reset mail is on its way. */
export function Confirmation({ email, onDone }: { email: string; onDone: () => void }) {
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
