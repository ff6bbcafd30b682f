import updateSchema from '../../schemas/account/user-update.schema.json';
import timeZones from '../../schemas/account/time-zones.json';

/**
 * The time zone labels of schemas/account/time-zones.json (the label is the stored value). The
 * precompiled details-form validator imports this very array rather than a copy of its own
 * (schemas/generate-form-validators.ts, `shared`), so the list ships once: do not mutate it.
 */
export const TIME_ZONE_LABELS: string[] = timeZones.zones;
export const DEFAULT_TIME_ZONE: string = timeZones.default;

/** A label's "(GMT±hh:mm) " prefix: the region's standard offset. */
const OFFSET_PREFIX = /^\(GMT[+-]\d{2}:\d{2}\) /;

/**
 * The IANA zone a time zone label names, for Intl and the like: the label without its offset,
 * spaces as underscores ("(GMT-11:00) Pacific/Pago Pago" → "Pacific/Pago_Pago"). The file keeps
 * labels only, since this is all the zone name ever was.
 */
export function zoneOf(label: string): string {
  return label.replace(OFFSET_PREFIX, '').replace(/ /g, '_');
}

/**
 * The account update schema as both sides use it: schemas/account/user-update.schema.json with
 * its time zone choices taken from the one list in schemas/account/time-zones.json.
 */
export const userUpdateSchema = {
  ...updateSchema,
  properties: { ...updateSchema.properties, time_zone: { ...updateSchema.properties.time_zone, enum: TIME_ZONE_LABELS } },
};
