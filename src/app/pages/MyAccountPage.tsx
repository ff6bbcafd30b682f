import { Placeholder } from '../components/Placeholder';

export default function MyAccountPage() {
  return <Placeholder title="My Account" />;
}
