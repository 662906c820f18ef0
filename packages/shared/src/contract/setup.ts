/**
 * First-run setup: on a fresh install (no account yet) the first visitor creates the operator's account; until then
 * no one else can sign up. Then, as that operator: a test message through the server's mail, and goods for the
 * catalogue (the starter catalogue the setup page offers when payments are configured; `haul-admin plans add` does the
 * same from a shell).
 */
import { Type } from '@sinclair/typebox';
import { TokenResponseSchema } from '../entities.js';
import { route } from './define.js';
import { ProductSchema } from './plans.js';
import { StringEnum } from './schema-kit.js';

export const setupRoutes = {
  getSetup: route({
    method: 'GET',
    path: '/v1/setup',
    tag: 'Accounts',
    summary: 'Whether the server is waiting for its operator',
    description: "`required` while no account exists on a server that sets itself up from the browser (HAUL_FIRST_RUN_SETUP, on by default): the first visit then creates the operator's account, and sign-up is refused until it has.",
    auth: 'public',
    response: Type.Object({ required: Type.Boolean() }),
    errors: {},
  }),
  getSite: route({
    method: 'GET',
    path: '/v1/site',
    tag: 'Accounts',
    summary: "This install's name",
    description: 'What the operator calls this install (the run-time setting site_name, HAUL_SITE_NAME at first; Haul unless set): the web app shows it in page titles and on its sign-in and welcome pages.',
    auth: 'public',
    response: Type.Object({ name: Type.String() }),
    errors: {},
  }),
  completeSetup: route({
    method: 'POST',
    path: '/v1/setup',
    tag: 'Accounts',
    summary: "Create the operator's account",
    description: "Creates the first account, as an operator, and signs it in. Only while setup is required: exactly one such request succeeds, however many race.",
    auth: 'public',
    body: Type.Object({
      email: Type.String({ maxLength: 254 }),
      password: Type.String({ maxLength: 1024 }),
      name: Type.Optional(Type.String({ maxLength: 200 })),
    }),
    response: TokenResponseSchema,
    errors: {
      invalid_argument: 'The e-mail is not a valid address, or the password is too short or too long.',
      failed_precondition: 'Setup is done: an account exists. Sign in instead.',
    },
    example: { email: 'operator@example.com', password: 'correct horse battery staple' },
  }),
  adminTestMail: route({
    method: 'POST',
    path: '/admin/v1/mail/test',
    tag: 'Administration',
    summary: 'Send a test message',
    description: "Sends a short message to the operator's own address the way every message goes: through SMTP when it is set (HAUL_SMTP_URL), or into the outbox table when it is not (`via` says which).",
    auth: 'admin',
    response: Type.Object({ to: Type.String(), via: StringEnum(['smtp', 'outbox'] as const) }),
    errors: { unavailable: 'The mail server refused the message or could not be reached; the description says why.' },
  }),
  adminSaveProduct: route({
    method: 'POST',
    path: '/admin/v1/products',
    tag: 'Administration',
    summary: 'Add or replace a product',
    description: 'Puts a product on sale, or replaces the one of the same id (orders keep what they were sold): what it grants (`premium:30d`, `storage:100GB`, `transfer:50GB`), its price and currency, and whether it renews monthly or yearly.',
    auth: 'admin',
    body: Type.Object({
      id: Type.String({ maxLength: 48, description: 'Lower-case letters, digits and dashes.' }),
      title: Type.String({ maxLength: 80 }),
      grant: Type.String({ maxLength: 200 }),
      price: Type.String({ maxLength: 20, description: 'A positive amount like 9.99.' }),
      currency: Type.String({ maxLength: 3, description: 'ISO 4217, like EUR.' }),
      interval: StringEnum(['', 'month', 'year'] as const, { description: "'' for paid once." }),
      position: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000 })),
    }),
    response: ProductSchema,
    errors: { invalid_argument: 'A field is out of its form; the description says which.' },
    example: { id: 'premium-month', title: 'Premium, monthly', grant: 'premium:30d', price: '4.99', currency: 'EUR', interval: 'month' },
  }),
};
