import { EventBus } from '../../../src/core/event-bus';
import { Breadcrumbs, HOME_CRUMB } from '../../../src/app/services/breadcrumbs';
import { MemoryStorage } from '../../../src/app/services/storage';

describe('Breadcrumbs', () => {
  it('starts at Home, appends visits and keeps the trail in session storage', () => {
    const storage = new MemoryStorage();
    const b = new Breadcrumbs(storage, new EventBus());
    expect(b.trail).toEqual([HOME_CRUMB]);
    b.visit({ label: 'Solutions', path: '/solutions' });
    b.visit({ label: 'Finance', path: '/solution/1' });
    expect(b.trail.map((c) => c.label)).toEqual(['Home', 'Solutions', 'Finance']);
    const again = new Breadcrumbs(storage, new EventBus());
    expect(again.trail.map((c) => c.label)).toEqual(['Home', 'Solutions', 'Finance']);
  });

  it('cuts the trail back when an earlier crumb is clicked or revisited', () => {
    const b = new Breadcrumbs(new MemoryStorage(), new EventBus());
    b.visit({ label: 'Solutions', path: '/solutions' });
    b.visit({ label: 'Finance', path: '/solution/1' });
    b.visit({ label: 'Invoice Data Extraction', path: '/solutions/combinations/10004' });
    b.cutTo(1);
    expect(b.trail.map((c) => c.path)).toEqual(['/home', '/solutions']);
    b.visit({ label: 'Finance', path: '/solution/1' });
    b.visit({ label: 'Solutions', path: '/solutions' });
    expect(b.trail.map((c) => c.path)).toEqual(['/home', '/solutions']);
  });

  it('resets on /home and announces changes on the bus', () => {
    const bus = new EventBus();
    const seen: number[] = [];
    bus.on('breadcrumbs/changed').subscribe((p) => seen.push(p.trail.length));
    const b = new Breadcrumbs(new MemoryStorage(), bus);
    b.visit({ label: 'Solutions', path: '/solutions' });
    b.visit({ label: 'Home', path: '/home' });
    expect(b.trail).toEqual([HOME_CRUMB]);
    expect(seen).toEqual([2, 1]);
  });

  it('ignores a corrupt stored trail', () => {
    const storage = new MemoryStorage();
    storage.setItem('breadcrumbs', '{not json');
    expect(new Breadcrumbs(storage, new EventBus()).trail).toEqual([HOME_CRUMB]);
  });
});
