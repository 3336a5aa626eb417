export * from './documents';
export * from './requests';
export * from './events';
