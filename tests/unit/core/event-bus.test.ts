import { EventBus } from '../../../src/core/event-bus';

describe('EventBus', () => {
  it('delivers typed events to subscribers of that type only', () => {
    const bus = new EventBus();
    const votes: number[] = [];
    const all: string[] = [];
    bus.on('vote/cast').subscribe((p) => votes.push(p.combinationId));
    bus.all$.subscribe((e) => all.push(e.type));
    bus.publish('vote/cast', { combinationId: 12 });
    bus.publish('session/ended', {});
    bus.publish('vote/cast', { combinationId: 13 });
    expect(votes).toEqual([12, 13]);
    expect(all).toEqual(['vote/cast', 'session/ended', 'vote/cast']);
  });

  it('stops delivering after unsubscribe and after complete', () => {
    const bus = new EventBus();
    const seen: number[] = [];
    const sub = bus.on('vote/cast').subscribe((p) => seen.push(p.combinationId));
    bus.publish('vote/cast', { combinationId: 1 });
    sub.unsubscribe();
    bus.publish('vote/cast', { combinationId: 2 });
    bus.complete();
    expect(seen).toEqual([1]);
  });
});
