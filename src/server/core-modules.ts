import type { ServerPlugin } from './plugin';
import { queueModule } from './queue';
import { authModule } from './auth';
import { mailModule } from './mail';
import { catalogueModule } from './catalogue';
import { feedbackModule } from './feedback';

/**
 * The server's own features, shaped like plugins so they share one lifecycle with the
 * plugins discovered under plugins/. Core modules start first.
 */
export const coreModules: ServerPlugin[] = [queueModule, mailModule, authModule, catalogueModule, feedbackModule];
