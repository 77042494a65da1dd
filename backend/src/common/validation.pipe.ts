import { ArgumentMetadata, BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';
import { findInputHazard, quotedField } from './input-hazard';

/** Deeper than any DTO of the API (attribution and card are the only nested objects). */
const MAX_INPUT_DEPTH = 8;

/** A wrong type explains the problem better than a length rule failing on the same value. */
const PRIORITY = ['whitelistValidation', 'isDefined', 'isString', 'isEmail', 'isObject', 'isInt', 'isBoolean', 'isUrl', 'isSafeText'];

function firstMessage(errors: ValidationError[], path = ''): string {
  for (const error of errors) {
    const field = path ? `${path}.${error.property}` : error.property;
    const constraints = error.constraints ?? {};
    if (constraints.whitelistValidation) return `Unknown field ${quotedField(field)} is not allowed`;
    const key = PRIORITY.find((k) => k in constraints) ?? Object.keys(constraints)[0];
    const message = key ? constraints[key] : undefined;
    if (message) return message;
    if (error.children?.length) return firstMessage(error.children, field);
  }
  return 'The request is not valid';
}

/**
 * class-validator with the rules every endpoint shares: unknown fields are refused, the body must
 * be a JSON object, and the 400 carries one sentence a person can act on.
 */
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new BadRequestException(firstMessage(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw new BadRequestException('The request body must be a JSON object');
    }
    if (metadata.type === 'body' || metadata.type === 'query') {
      const hazard = findInputHazard(value, MAX_INPUT_DEPTH);
      if (hazard?.reason === 'too-deep') throw new BadRequestException(`The request ${metadata.type} is nested too deeply`);
      if (hazard)
        throw new BadRequestException(
          `${hazard.path ? `Field ${quotedField(hazard.path)}` : 'The request'} is not valid text (it has a broken character)`,
        );
    }
    return super.transform(value, metadata);
  }
}
