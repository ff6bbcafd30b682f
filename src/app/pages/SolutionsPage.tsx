import { Placeholder } from '../components/Placeholder';

export default function SolutionsPage() {
  return <Placeholder title="Solutions" />;
}
