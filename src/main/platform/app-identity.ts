/**
 * The app's identity on the desktop: the id the installers are built with (`appId` in
 * electron-builder.yml; a test keeps the two equal). Windows shows notifications only for an
 * app whose AppUserModelID matches the one its installer registered.
 */
export const APP_ID = 'org.mediataskstudio.app';
