/** Passwords are hashed with service-kit's `PasswordHasher` (scrypt, bounded concurrency). */
export { PasswordHasher, PasswordHashBusyError, defaultHashConcurrency, HASH_QUEUE_PER_RUN } from '@triad/service-kit';
