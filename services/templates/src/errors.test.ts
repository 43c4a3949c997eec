import { describe, expect, it } from 'vitest';
import { templatesProblems } from './errors.js';

describe('templatesProblems', () => {
  it('pins every code to its status and title', () => {
    expect(templatesProblems.definitions).toEqual({
      TPL_ERR_TEMPLATE_INVALID: { status: 422, title: 'The template is not valid' },
      TPL_ERR_TEMPLATE_NOT_FOUND: { status: 404, title: 'No such template' },
      TPL_ERR_TEMPLATE_EXISTS: { status: 409, title: 'This template version already exists' },
      TPL_ERR_IDENTITY_MISMATCH: { status: 409, title: 'The document names a different template than the URL' },
      TPL_ERR_NOT_ACCEPTABLE: { status: 406, title: 'No representation matches the Accept header' },
      TPL_ERR_DEVICE_INVALID: { status: 422, title: 'The device cannot be bound to this template' },
      TPL_ERR_DEVICE_NOT_FOUND: { status: 404, title: 'No such device' },
      TPL_ERR_DEVICE_ALARM_NOT_FOUND: { status: 404, title: 'No such raised alarm on this device' },
      TPL_ERR_DEVICE_DATAPOINT_NOT_FOUND: { status: 404, title: "No such datapoint in the device's template" },
      TPL_ERR_HISTORY_QUERY_INVALID: { status: 400, title: 'The history query cannot be answered as asked' },
      TPL_ERR_DEVICE_ADDRESS_REFUSED: { status: 422, title: 'The device address policy refuses this address' },
      TPL_ERR_DEVICE_SECRET_REQUIRED: { status: 422, title: 'A changed device target needs its secrets again' },
      TPL_ERR_UNAUTHORIZED: { status: 401, title: 'This request needs a bearer token' },
      TPL_ERR_FORBIDDEN: { status: 403, title: 'The scope of this token is too small for this request' },
      TPL_ERR_TOKEN_CHECKS_BUSY: { status: 503, title: 'Too many tokens are being checked at once' },
    });
  });

  it('builds problems that carry the code, status and extensions', () => {
    const error = templatesProblems.create('TPL_ERR_TEMPLATE_NOT_FOUND', 'x 1.0.0', { templateId: 'x' });
    expect(error.status).toBe(404);
    expect(error.code).toBe('TPL_ERR_TEMPLATE_NOT_FOUND');
    expect(error.extensions).toEqual({ templateId: 'x' });
  });
});
