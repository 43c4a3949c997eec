/** Passwords are hashed with service-kit's `PasswordHasher` (scrypt, bounded concurrency). */
export { PasswordHasher, defaultHashConcurrency } from '@triad/service-kit';
