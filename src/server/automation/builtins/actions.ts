import { createHash } from 'node:crypto';
import { contribute } from '../../../core/contributions';
import { PermanentStepError } from '../errors';
import { AutomationActions, type ActionContext, type ActionDefinition, type TriggerSource } from '../kinds';
import { SetupPreparations } from '../setup-preparations';
import { fieldsOf, fillTemplate, pathValue } from '../templating';

export { pathValue };

const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

/** The Message-ID of the e-mail a step sends: the same for every try of that step. */
export function messageIdFor(idempotencyKey: string): string {
  return `<${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 40)}@automation.flowmatic>`;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function stringParam(ctx: ActionContext, fields: Record<string, unknown>, name: string): string | undefined {
  const p = ctx.params[name];
  if (typeof p === 'string') return fillTemplate(p, fields);
  const f = fields[name];
  return typeof f === 'string' ? f : undefined;
}

/** What brought a mail-started run's data in, as the step's output names it. */
const CAME_FROM: Partial<Record<TriggerSource, string>> = {
  webhook: 'the webhook call that started this run',
  push: 'the call that started this run',
  manual_upload: 'the upload that started this run',
  setup: 'the setup call that started this run',
  poll: 'the item that started this run',
};

/**
 * Who a mail-started run (ActionContext.mailStarted: its recipe starts from e-mail, whether this
 * run came by real inbound mail, by the webhook standing in for it, by an upload or as a run
 * again) may write to: the recipe's owner, or an address the recipe names as it is (no
 * '{{field}}'). An address the run's data gave (the sender's, one in the message or the webhook
 * body, a field a step made of it) is anyone's choice, so the mail goes to the owner instead and
 * the step's output says why. Other runs send where the step says.
 */
function mailRecipient(ctx: ActionContext, to: string | undefined): { to: string | undefined; warning?: string } {
  const byMail = ctx.trigger.source === 'manual_email';
  if (!ctx.mailStarted && !byMail) return { to };
  const configured = typeof ctx.params.to === 'string' && !ctx.params.to.includes('{{') ? ctx.params.to.trim() : undefined;
  const owner = ctx.ownerEmail?.trim();
  // 'Name <a@b.example>' is a@b.example
  const bare = (a: string) => /<([^<>]+)>\s*$/.exec(a)?.[1].trim() ?? a;
  const same = (a: string | undefined, b: string | undefined) => !!a && !!b && bare(a).toLowerCase() === bare(b).toLowerCase();
  if (to && same(to, owner)) return { to: bare(to) };
  if (to && same(to, configured)) return { to };
  if (!owner)
    throw new PermanentStepError(
      'This workflow starts from e-mail, so it may write only to the recipe owner or to an address the recipe names, and the owner has no address.',
    );
  if (!to) return { to: owner };
  const source = byMail ? 'the e-mail that started this run' : (CAME_FROM[ctx.trigger.source] ?? 'the data that started this run');
  const rule = byMail
    ? 'a run started by an e-mail writes only to you or to an address the recipe names.'
    : 'this workflow starts from e-mail, so its runs write only to you or to an address the recipe names, however they are started.';
  return { to: owner, warning: `${bare(to).slice(0, 80)} came from ${source}, so the message went to you (${owner}) instead: ${rule}` };
}

/**
 * Sends an e-mail through the mail service. To, subject and text come from the step's params
 * ('{{field}}' placeholders filled from the input) or the input's fields; a mail-started run
 * sends only to the owner or an address the recipe names (mailRecipient). The
 * Message-ID is derived from the idempotency key and the key is recorded once sent, so a retried
 * or resumed step never sends twice.
 */
export const sendEmail: ActionDefinition = {
  provider: 'email',
  action: 'send',
  name: 'Send an e-mail',
  async run(input, ctx) {
    const fields = fieldsOf(input);
    const { to, warning } = mailRecipient(ctx, stringParam(ctx, fields, 'to')?.trim() || undefined);
    const subject = stringParam(ctx, fields, 'subject')?.trim();
    const text = stringParam(ctx, fields, 'text') ?? stringParam(ctx, fields, 'body');
    if (!to || !EMAIL.test(to)) throw new PermanentStepError(`The e-mail step needs a valid "to" address${to ? `, got "${to.slice(0, 80)}"` : ''}.`);
    if (!subject) throw new PermanentStepError('The e-mail step needs a subject.');
    if (!text) throw new PermanentStepError('The e-mail step needs a text.');
    const messageId = messageIdFor(ctx.idempotencyKey);
    const key = `mail:${ctx.idempotencyKey}`;
    const warnings = warning ? { warnings: [warning] } : {};
    if (await ctx.ledger.has(key)) return { sent: false, already_sent: true, to, subject, message_id: messageId, ...warnings };
    await ctx.mail.send({ to, subject: subject.slice(0, 300), text, messageId });
    await ctx.ledger.record(key, 'mail');
    return { sent: true, to, subject, message_id: messageId, ...warnings };
  },
};

/** The same action under the name the catalogue's e-mail connector uses. */
export const sendEmailConnector: ActionDefinition = { ...sendEmail, provider: 'manual_email', action: 'send_email' };

/**
 * A pure reshaping step: `params.map` names output fields and the input paths they come from
 * ({ total: 'amount', vendor: 'supplier.name' }), `params.set` adds constants; with neither the
 * input's fields pass through unchanged.
 */
export const transform: ActionDefinition = {
  provider: 'flowmatic',
  action: 'transform',
  name: 'Transform the data',
  retries: 1,
  async run(input, ctx) {
    const fields = fieldsOf(input);
    const map = asRecord(ctx.params.map);
    const set = asRecord(ctx.params.set);
    if (!Object.keys(map).length && !Object.keys(set).length) return { ...fields };
    const out: Record<string, unknown> = {};
    for (const [name, path] of Object.entries(map)) {
      if (typeof path !== 'string') throw new PermanentStepError(`The transform's map entry "${name}" must name an input field.`);
      out[name] = pathValue(fields, path) ?? null;
    }
    return { ...out, ...set };
  },
};

/** Keeps the input as one record of the recipe (once per job and step, whatever the retries). */
export const storeRecord: ActionDefinition = {
  provider: 'flowmatic',
  action: 'store_record',
  name: 'Store a record',
  async run(input, ctx) {
    const data = fieldsOf(input);
    const saved = await ctx.records.save(ctx.idempotencyKey, data);
    return { record_id: saved.id, stored: saved.created, fields: Object.keys(data).length };
  },
};

/**
 * The starter recipe's step: prepares what a combination needs before its own recipe runs. It
 * checks the request, then runs every contributed SetupPreparation (the connectors plugin makes
 * the combination's Drive folder and Google Sheet) and reports what each prepared or skipped.
 */
export const prepareSetup: ActionDefinition = {
  provider: 'flowmatic',
  action: 'prepare_setup',
  name: 'Prepare the workspace',
  async run(input, ctx) {
    const fields = fieldsOf(input);
    const combinationId = Number(fields.combination_id);
    if (!Number.isInteger(combinationId) || combinationId <= 0) {
      throw new PermanentStepError('The starter recipe was called without the number of the combination being set up.');
    }
    const connectors = Array.isArray(fields.connectors) ? fields.connectors.filter((c): c is string => typeof c === 'string') : [];
    const prepared: string[] = [];
    const skipped: string[] = [];
    for (const p of ctx.contributions?.all(SetupPreparations) ?? []) {
      const r = await p.prepare({ combinationId, managedUserId: ctx.managedUserId, userId: ctx.userId, connectors }, ctx);
      prepared.push(...r.prepared);
      skipped.push(...(r.skipped ?? []));
    }
    return { combination_id: combinationId, connectors, prepared, ...(skipped.length ? { skipped } : {}) };
  },
};

/** The core engine's own actions. */
export const builtinActions = [sendEmail, sendEmailConnector, transform, storeRecord, prepareSetup].map((a) => contribute(AutomationActions, a));
