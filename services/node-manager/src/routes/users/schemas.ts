/** Route schemas of `/api/users/*` (also the OpenAPI description). */
import { BODY_ERRORS, errorResponses } from '../shared-schemas.js';

const tags = ['users'];
const usernameParam = {
  type: 'object',
  required: ['username'],
  properties: { username: { type: 'string', pattern: '^[A-Za-z0-9]{1,64}$' } },
} as const;

const trueReply = { 200: { type: 'boolean', description: 'Always true on success' } } as const;

export const authStatusSchema = {
  tags,
  operationId: 'authStatus',
  summary: 'Whether authentication is on',
  response: { 200: { type: 'boolean' }, ...errorResponses() },
} as const;
export const usernameSchema = {
  tags,
  operationId: 'currentUsername',
  summary: 'Name of the current user',
  response: { 200: { type: 'string' }, ...errorResponses() },
} as const;
export const passSchema = {
  tags,
  operationId: 'websocketPass',
  summary: 'A WebSocket pass for the current user (see /api/core/ws)',
  response: { 200: { type: 'string' }, ...errorResponses() },
} as const;
export const isAdminSchema = {
  tags,
  operationId: 'isAdmin',
  summary: 'True only when authentication is on and the current user is admin',
  response: { 200: { type: 'boolean' }, ...errorResponses() },
} as const;
export const roleSchema = {
  tags,
  operationId: 'userRole',
  summary: "A user's role (admin or that user)",
  params: usernameParam,
  response: { 200: { type: 'string' }, ...errorResponses() },
} as const;
export const rightsSchema = {
  tags,
  operationId: 'userRights',
  summary: "A user's rights (admin or that user)",
  params: usernameParam,
  response: { 200: { type: 'array', items: { type: 'string' } }, ...errorResponses() },
} as const;
export const changePasswordSchema = {
  tags,
  operationId: 'changePassword',
  summary: "Changes the current user's password",
  body: {
    type: 'object',
    required: ['password'],
    additionalProperties: false,
    properties: { password: { type: 'string', maxLength: 128 } },
  },
  response: { ...trueReply, ...errorResponses(...BODY_ERRORS) },
} as const;
export const changeRoleSchema = {
  tags,
  operationId: 'changeRole',
  summary: 'Sets a user role (admin only); rights follow the role',
  body: {
    type: 'object',
    required: ['username', 'role'],
    additionalProperties: false,
    properties: { username: { type: 'string', maxLength: 64 }, role: { type: 'string', maxLength: 16 } },
  },
  response: { ...trueReply, ...errorResponses(...BODY_ERRORS) },
} as const;
export const changeRightsSchema = {
  tags,
  operationId: 'changeRights',
  summary: 'Sets the rights of a user (admin only)',
  body: {
    type: 'object',
    required: ['username', 'rights'],
    additionalProperties: false,
    properties: {
      username: { type: 'string', maxLength: 64 },
      rights: { type: 'array', maxItems: 3, items: { type: 'string', maxLength: 16 } },
    },
  },
  response: { ...trueReply, ...errorResponses(...BODY_ERRORS) },
} as const;
export const listUsersSchema = {
  tags,
  operationId: 'listUsers',
  summary: 'Every username (admin only)',
  response: { 200: { type: 'array', items: { type: 'string' } }, ...errorResponses() },
} as const;
export const addUserSchema = {
  tags,
  operationId: 'addUser',
  summary: 'Adds a user with role user and rights read, write (admin only)',
  body: {
    type: 'object',
    required: ['username', 'password'],
    additionalProperties: false,
    properties: { username: { type: 'string', maxLength: 64 }, password: { type: 'string', maxLength: 128 } },
  },
  response: { ...trueReply, ...errorResponses(...BODY_ERRORS) },
} as const;
export const deleteUserSchema = {
  tags,
  operationId: 'deleteUser',
  summary: 'Deletes a user (admin only); their front pages go to admin unless with_pages=true',
  params: usernameParam,
  querystring: { type: 'object', additionalProperties: false, properties: { with_pages: { type: 'boolean' } } },
  response: { ...trueReply, ...errorResponses() },
} as const;
