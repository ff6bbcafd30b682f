import type { RJSFSchema } from '@rjsf/utils';
import resetSchema from '../../../../schemas/auth/reset-password.schema.json';

/** The new-password form of the reset screen, built from the request schema the server validates with. */
export const resetFormSchema: RJSFSchema = {
  $id: 'auth/reset-password-form',
  type: 'object',
  properties: {
    password: { ...resetSchema.properties.password, title: 'New password' },
    confirm: { type: 'string', title: 'Confirm password', maxLength: resetSchema.properties.password.maxLength },
  },
} as RJSFSchema;
