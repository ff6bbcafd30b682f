import { definePlugin } from '../../src/app';

/** Emotion analysis of text: workflow page 10002. */
export default definePlugin({
  id: 'emotion-analysis',
  workflowViews: { 10002: { load: () => import('./EmotionAnalysisView') } },
});
