import { contribute } from '../../../core/contributions';
import { AutomationTriggers, type TriggerDefinition } from '../kinds';
import { summariseTrigger } from '../summary';
import type { WebhookPayloadSchema } from '../webhook-payload';
import anyFields from '../../../../schemas/automation/webhook-payloads/any-fields.schema.json';
import document from '../../../../schemas/automation/webhook-payloads/document.schema.json';
import text from '../../../../schemas/automation/webhook-payloads/text.schema.json';
import email from '../../../../schemas/automation/webhook-payloads/email.schema.json';

const describe = summariseTrigger;

/**
 * The triggers the core provides: the recipe's webhook (every recipe has one), files or text
 * the user hands in (manual_upload), and e-mail to the recipe's address (manual_email). Each
 * declares what a webhook call to its recipes carries (schemas/automation/webhook-payloads).
 */
export const builtinTriggerDefinitions: TriggerDefinition[] = [
  { provider: 'webhook', action: 'webhook_received', name: 'Webhook call', describe, payload: anyFields as WebhookPayloadSchema },
  { provider: 'manual_upload', action: 'file_uploaded', name: 'File uploaded in Flowmatic', describe, payload: document as WebhookPayloadSchema },
  { provider: 'manual_upload', action: 'files_uploaded', name: 'Files uploaded in Flowmatic', describe, payload: document as WebhookPayloadSchema },
  { provider: 'manual_upload', action: 'text_submitted', name: 'Text submitted in Flowmatic', describe, payload: text as WebhookPayloadSchema },
  { provider: 'manual_email', action: 'email_received', name: 'New e-mail with attachments', describe, payload: email as WebhookPayloadSchema },
];

export const builtinTriggers = builtinTriggerDefinitions.map((t) => contribute(AutomationTriggers, t));
