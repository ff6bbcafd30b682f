import { Placeholder } from '../components/Placeholder';

export default function ResetPasswordPage() {
  return <Placeholder title="Reset Password" />;
}
