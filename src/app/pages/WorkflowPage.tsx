import { Placeholder } from '../components/Placeholder';

export default function WorkflowPage() {
  return <Placeholder title="Workflow" />;
}
