/**
 * What a combination's server side shares with the others: the saved-config endpoints of spec 7
 * (Python-style config_json, one row per user and combination) and files sent as base64 in JSON.
 */
export * from './config-endpoints';
export * from './base64-upload';
