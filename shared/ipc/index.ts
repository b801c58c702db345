export * from './contract';
export * from './define';
export * from './schemas';
export * from './client';
export * from './errors';
export * from './channels/app';
export * from './channels/project';
export * from './channels/skills';
