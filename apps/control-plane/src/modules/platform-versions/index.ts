export { DEFAULT_PLATFORM_VERSIONS } from './default-platform-versions.js';
export { PlatformVersionsFileError, readPlatformVersionsFile } from './platform-versions-file.js';
export { registerPlatformVersionsModule } from './platform-versions.module.js';
