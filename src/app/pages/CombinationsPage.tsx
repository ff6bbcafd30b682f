import { Placeholder } from '../components/Placeholder';

export default function CombinationsPage() {
  return <Placeholder title="Combinations" />;
}
