import { Placeholder } from '../components/Placeholder';

export default function LoginPage() {
  return <Placeholder title="Login" />;
}
