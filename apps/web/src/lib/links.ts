export const externalLinks = {
  documentation: 'https://keyward.app/docs',
  contactSupport: 'mailto:support@keyward.app',
  howToVideo: 'https://keyward.app/docs/how-to-video',
  gettingStartedGuide: 'https://keyward.app/docs/getting-started',
  macAppDownload: 'https://keyward.app/download',
} as const;
