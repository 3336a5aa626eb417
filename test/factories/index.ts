export * from './documents';
export * from './requests';
