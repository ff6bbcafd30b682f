import { PlannedView } from '../../src/app/components/catalogue/PlannedView';

/** Workflow 10002. The text / results screen is built by a later issue. */
export default function EmotionAnalysisView() {
  return <PlannedView title="Emotion Analysis from Text Files" />;
}
