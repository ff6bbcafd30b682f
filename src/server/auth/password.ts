import { hash, verify } from '@node-rs/argon2';

/** @node-rs/argon2's `Algorithm.Argon2id` (a const enum, which isolated modules cannot read). */
const ARGON2ID = 2;

/** Password hashing with argon2id (memory-hard). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/**
 * argon2id through @node-rs/argon2 (a Node-API 4 addon: it loads on Node 20, where the `argon2`
 * package's prebuilt 0.45 addon asks for Node-API 10 and crashes the process). The hashes are the
 * standard PHC strings (`$argon2id$v=19$m=19456,t=2,p=1$…`), so the ones stored before still verify.
 */
export class Argon2Hasher implements PasswordHasher {
  constructor(private readonly options: { memoryCost?: number; timeCost?: number } = {}) {}
  hash(password: string): Promise<string> {
    return hash(password, {
      algorithm: ARGON2ID,
      memoryCost: this.options.memoryCost ?? 19456,
      timeCost: this.options.timeCost ?? 2,
      parallelism: 1,
    });
  }
  async verify(stored: string, password: string): Promise<boolean> {
    try {
      return await verify(stored, password);
    } catch {
      return false;
    }
  }
}
