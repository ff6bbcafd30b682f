import { PROFILE_REUSE_MS, forgetProfile, loadProfile } from '../../../src/app/services/profile-loader';

function fakeApi(reply: () => Promise<unknown>) {
  return { get: jest.fn((_path: string) => reply()) } as unknown as { get: jest.Mock } & Parameters<typeof loadProfile>[0];
}

describe('loadProfile: one profile call per page load', () => {
  it('shares one request between the layout and My details', async () => {
    const api = fakeApi(async () => ({ Name: 'Ada' }));
    const [a, b] = await Promise.all([loadProfile(api, 7), loadProfile(api, '7')]);
    expect(a).toEqual({ Name: 'Ada' });
    expect(b).toBe(a);
    expect(api.get).toHaveBeenCalledTimes(1);
    expect(api.get).toHaveBeenCalledWith('/api/platform/users/7/');
  });

  it('reuses a reply for a while, then asks again', async () => {
    let t = 1_000;
    const api = fakeApi(async () => ({ Name: 'Ada' }));
    await loadProfile(api, 7, () => t);
    t += PROFILE_REUSE_MS - 1;
    await loadProfile(api, 7, () => t);
    expect(api.get).toHaveBeenCalledTimes(1);
    t += 2;
    await loadProfile(api, 7, () => t);
    expect(api.get).toHaveBeenCalledTimes(2);
  });

  it('asks again after forgetProfile (a save) and after a failure', async () => {
    let fail = true;
    const api = fakeApi(async () => {
      if (fail) throw new Error('offline');
      return { Name: 'Ada' };
    });
    await expect(loadProfile(api, 7)).rejects.toThrow('offline');
    fail = false;
    await expect(loadProfile(api, 7)).resolves.toEqual({ Name: 'Ada' });
    forgetProfile(api, 7);
    await loadProfile(api, 7);
    expect(api.get).toHaveBeenCalledTimes(3);
  });

  it('keeps users apart', async () => {
    const api = fakeApi(async () => ({}));
    await Promise.all([loadProfile(api, 7), loadProfile(api, 8)]);
    expect(api.get).toHaveBeenCalledTimes(2);
  });
});
