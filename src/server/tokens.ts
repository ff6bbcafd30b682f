import { token } from '../core/di';
import type { ContributionRegistry } from '../core/contributions';
import type { ServerConfig as Config } from './config';
import type { Db as Database } from './db/database';
import type { Mailer as MailerService } from './mail/mailer';
import type { JobQueue as Queue } from './queue/job-queue';
import type { TokenService as Tokens } from './auth/token-service';
import type { PasswordHasher as Hasher } from './auth/password';
import type { ServerPlugin } from './plugin';
import type { TextGenerator as Generator } from './ai/text-generation/text-generator';
import type { FileStore as Files } from './files/file-store';
import type { OcrEngine } from './ai/ocr/ocr-engine';

/** DI tokens of the server container, each carrying its service's type, plus the shared ones. */
export { Clock, EventBus, Logger } from '../core/tokens';
export const ServerConfig = token<Config>('ServerConfig');
export const Db = token<Database>('Db');
export const Mailer = token<MailerService>('Mailer');
export const JobQueue = token<Queue>('JobQueue');
export const TokenService = token<Tokens>('TokenService');
export const PasswordHasher = token<Hasher>('PasswordHasher');
export const ServerPlugins = token<ServerPlugin[]>('ServerPlugins');
/** Every server plugin's contributions, by kind (the engine's actions and triggers, …). */
export const Contributions = token<ContributionRegistry>('Contributions');
/** The one text-generation interface: templates by default, an LLM when LLM_* are set. */
export const TextGenerator = token<Generator>('TextGenerator');
/** Uploaded and generated files, per owner, under DATA_DIR/files. */
export const FileStore = token<Files>('FileStore');
/** One OCR worker pool for the process (started lazily, closed on shutdown). */
export const Ocr = token<OcrEngine>('Ocr');
