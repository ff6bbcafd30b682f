import { Placeholder } from '../components/Placeholder';

export default function HomePage() {
  return <Placeholder title="Home" />;
}
