import { Argon2Hasher } from '../../../src/server/auth/password';

describe('password hashing (argon2id)', () => {
  const hasher = new Argon2Hasher({ memoryCost: 1024, timeCost: 1 });

  it('hashes to a PHC argon2id string that verifies the password and nothing else', async () => {
    const stored = await hasher.hash('correct horse battery staple');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    await expect(hasher.verify(stored, 'correct horse battery staple')).resolves.toBe(true);
    await expect(hasher.verify(stored, 'Correct horse battery staple')).resolves.toBe(false);
    expect(await hasher.hash('correct horse battery staple')).not.toBe(stored); // a new salt each time
  });

  it('verifies hashes written by the reference implementation (phc-winner-argon2 README), as stored by the former argon2 package', async () => {
    // echo -n "password" | ./argon2 somesalt -t 2 -m 16 -p 4 -l 24
    await expect(hasher.verify('$argon2i$v=19$m=65536,t=2,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG', 'password')).resolves.toBe(true);
    await expect(hasher.verify('$argon2i$v=19$m=65536,t=2,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG', 'passwort')).resolves.toBe(false);
  });

  it('answers false, never throws, for a stored value that is not a hash', async () => {
    await expect(hasher.verify('not a hash', 'x')).resolves.toBe(false);
    await expect(hasher.verify('$argon2id$v=19$m=1024,t=1,p=1$c2FsdHNhbHQ$aGFzaA', 'x')).resolves.toBe(false);
  });
});
