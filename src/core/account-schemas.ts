import updateSchema from '../../schemas/account/user-update.schema.json';
import timeZones from '../../schemas/account/time-zones.json';

/** The time zone labels of schemas/account/time-zones.json (the label is the stored value). */
export const TIME_ZONE_LABELS: string[] = timeZones.zones.map((z) => z.label);
export const DEFAULT_TIME_ZONE: string = timeZones.default;

/**
 * The account update schema as both sides use it: schemas/account/user-update.schema.json with
 * its time zone choices taken from the one list in schemas/account/time-zones.json.
 */
export const userUpdateSchema = {
  ...updateSchema,
  properties: { ...updateSchema.properties, time_zone: { ...updateSchema.properties.time_zone, enum: TIME_ZONE_LABELS } },
};
