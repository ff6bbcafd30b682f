import { defineServerPlugin } from '../../src/server/plugin';
import { catalogue } from './catalogue';

/** Emotion analysis: workflow 10002 (combinations 6, 7) and the coming-soon 10003 (combination 15). */
export default defineServerPlugin({ id: 'emotion-analysis', catalogue });
