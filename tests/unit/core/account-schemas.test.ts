/**
 * @jest-environment node
 */
import timeZones from '../../../schemas/account/time-zones.json';
import { DEFAULT_TIME_ZONE, TIME_ZONE_LABELS, userUpdateSchema, zoneOf } from '../../../src/core/account-schemas';

describe('time zone labels (schemas/account/time-zones.json)', () => {
  it('are the file’s list of labels, each once, with its default among them', () => {
    expect(TIME_ZONE_LABELS).toBe(timeZones.zones);
    expect(TIME_ZONE_LABELS.length).toBeGreaterThan(400);
    expect(TIME_ZONE_LABELS.every((l) => typeof l === 'string')).toBe(true);
    expect(new Set(TIME_ZONE_LABELS).size).toBe(TIME_ZONE_LABELS.length);
    expect(TIME_ZONE_LABELS).toContain(DEFAULT_TIME_ZONE);
    expect(userUpdateSchema.properties.time_zone.enum).toBe(TIME_ZONE_LABELS);
  });

  it('each start with the region’s "(GMT±hh:mm) " offset', () => {
    expect(TIME_ZONE_LABELS.filter((l) => !/^\(GMT[+-]\d{2}:\d{2}\) \S/.test(l))).toEqual([]);
  });
});

describe('zoneOf', () => {
  it('drops the offset and writes spaces as underscores', () => {
    expect(zoneOf('(GMT-11:00) Pacific/Pago Pago')).toBe('Pacific/Pago_Pago');
    expect(zoneOf('(GMT+01:00) Europe/Paris')).toBe('Europe/Paris');
    expect(zoneOf('(GMT-03:00) America/Buenos Aires')).toBe('America/Buenos_Aires');
    expect(zoneOf('(GMT+13:45) Pacific/Chatham')).toBe('Pacific/Chatham');
    expect(zoneOf(DEFAULT_TIME_ZONE)).toBe('UTC');
  });

  it('leaves a value without an offset prefix as it is, spaces aside', () => {
    expect(zoneOf('Europe/Paris')).toBe('Europe/Paris');
    expect(zoneOf('GMT+01:00 Europe/Paris')).toBe('GMT+01:00_Europe/Paris');
    expect(zoneOf('')).toBe('');
  });

  it('names a zone Intl knows for every label of the list', () => {
    const unknown = TIME_ZONE_LABELS.filter((label) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zoneOf(label) });
        return false;
      } catch {
        return true;
      }
    });
    expect(unknown).toEqual([]);
  });
});
