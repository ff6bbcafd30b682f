import { Placeholder } from '../components/Placeholder';

export default function RegisterPage() {
  return <Placeholder title="Register" />;
}
