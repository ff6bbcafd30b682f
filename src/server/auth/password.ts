import argon2 from 'argon2';

/** Password hashing with argon2id (memory-hard). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

export class Argon2Hasher implements PasswordHasher {
  constructor(private readonly options: { memoryCost?: number; timeCost?: number } = {}) {}
  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id, memoryCost: this.options.memoryCost ?? 19456, timeCost: this.options.timeCost ?? 2 });
  }
  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }
}
