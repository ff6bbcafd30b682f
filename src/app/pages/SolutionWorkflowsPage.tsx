import { Placeholder } from '../components/Placeholder';

export default function SolutionWorkflowsPage() {
  return <Placeholder title="Solution Workflows" />;
}
