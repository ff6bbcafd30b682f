import { contribute } from '../../../core/contributions';
import { AutomationTriggers, type TriggerDefinition } from '../kinds';
import { summariseTrigger } from '../summary';

const describe = summariseTrigger;

/**
 * The triggers the core provides: the recipe's webhook (every recipe has one), files or text
 * the user hands in (manual_upload), and e-mail to the recipe's address (manual_email).
 */
export const builtinTriggerDefinitions: TriggerDefinition[] = [
  { provider: 'webhook', action: 'webhook_received', name: 'Webhook call', describe },
  { provider: 'manual_upload', action: 'file_uploaded', name: 'File uploaded in Flowmatic', describe },
  { provider: 'manual_upload', action: 'files_uploaded', name: 'Files uploaded in Flowmatic', describe },
  { provider: 'manual_upload', action: 'text_submitted', name: 'Text submitted in Flowmatic', describe },
  { provider: 'manual_email', action: 'email_received', name: 'New e-mail with attachments', describe },
];

export const builtinTriggers = builtinTriggerDefinitions.map((t) => contribute(AutomationTriggers, t));
