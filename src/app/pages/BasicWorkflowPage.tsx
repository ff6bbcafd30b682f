import { Placeholder } from '../components/Placeholder';

export default function BasicWorkflowPage() {
  return <Placeholder title="Basic Workflow" />;
}
