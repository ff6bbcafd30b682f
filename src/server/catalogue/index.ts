import { defineServerPlugin } from '../plugin';

/** PLACEHOLDER: catalogue seeding and endpoints. */
export const catalogueModule = defineServerPlugin({ id: 'catalogue' });
