import type { NotificationMethodConfig } from '@keyward/contract/shared';
import { formatPhoneForDisplay } from '@keyward/domain/phone';

export const METHOD_TYPE_LABELS: Record<NotificationMethodConfig['case'], string> = {
  email: 'Email',
  text: 'Text message',
  slack: 'Slack',
};

/** Where the method sends: the address, the phone as (xxx) xxx-xxxx for +1, or the channel. */
export function methodTarget(config: NotificationMethodConfig): string {
  switch (config.case) {
    case 'email':
      return config.email;
    case 'text':
      return formatPhoneForDisplay(config.phoneNumber);
    case 'slack':
      return config.channelName.startsWith('#') ? config.channelName : `#${config.channelName}`;
  }
}

export function methodLabel(config: NotificationMethodConfig): string {
  return `${METHOD_TYPE_LABELS[config.case]}: ${methodTarget(config)}`;
}
