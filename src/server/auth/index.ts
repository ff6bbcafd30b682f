import { defineServerPlugin } from '../plugin';

/** PLACEHOLDER: the auth and profile endpoints of spec section 7. */
export const authModule = defineServerPlugin({ id: 'auth' });
