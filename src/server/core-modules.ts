import type { AnyServerPlugin } from './plugin';
import { queueModule } from './queue';
import { authModule } from './auth';
import { mailModule } from './mail';
import { catalogueModule } from './catalogue';
import { feedbackModule } from './feedback';
import { votesModule } from './votes';
import { marketingModule } from './marketing';
import { providerModule } from './provider';
import { filesModule } from './files/module';
import { automationModule } from './automation';
import { connectionsModule } from './connections';
import { pollingModule } from './automation/polling';
import { publicApiModule } from './public-api';

/**
 * The server's own features, shaped like plugins so they share one lifecycle with the
 * plugins discovered under plugins/. Core modules start first.
 */
export const coreModules: AnyServerPlugin[] = [
  queueModule,
  mailModule,
  authModule,
  catalogueModule,
  votesModule,
  marketingModule,
  providerModule,
  feedbackModule,
  filesModule,
  automationModule,
  connectionsModule,
  pollingModule,
  publicApiModule,
];
