import type { Migration, MigrationProvider } from 'kysely';
import { initialMigration } from './0001_initial.ts';
import { appCatalogueMigration } from './0002_app_catalogue.ts';
import { publicKeychainsMigration } from './0003_public_keychains.ts';
import { iosBlockGroupsMigration } from './0005_ios_block_groups.ts';
import { coParentsMigration } from './0012_co_parents.ts';
import { twoFactorExportMigration } from './0013_two_factor_export.ts';
import { familyVersionsMigration } from './0014_family_versions.ts';
import { macPrincipalFunctionMigration } from './0015_mac_principal_function.ts';
import { iosAppBlockGroupsMigration } from './0016_ios_app_block_groups.ts';
import { screenshotUploadsMigration } from './0017_screenshot_uploads.ts';
import { connectionCodeGuessesMigration } from './0018_connection_code_guesses.ts';
import { activityAlertsMigration } from './0019_activity_alerts.ts';
import { pushNotificationsMigration } from './0020_push_notifications.ts';
import { browserDevicesMigration } from './0021_browser_devices.ts';
import { hardeningThreeMigration } from './0022_hardening_three.ts';
import { dnsBlockedNamesMigration } from './0023_dns_blocked_names.ts';
import { requestedSuspensionDurationMigration } from './0024_requested_suspension_duration.ts';
import { dnsDevicesMigration } from './0025_dns_devices.ts';
import { screenTimeMigration } from './0026_screen_time.ts';
import { dnsRemovalPasswordEncryptedMigration } from './0027_dns_removal_password_encrypted.ts';
import type { DialectName, PortableMigration } from './types.ts';

// Add a migration: create `NNNN_name.ts` exporting a PortableMigration and list it here.
// Names sort alphabetically, so keep the 4-digit prefix.
const migrations: Record<string, PortableMigration> = {
  '0001_initial': initialMigration,
  '0002_app_catalogue': appCatalogueMigration,
  '0003_public_keychains': publicKeychainsMigration,
  '0005_ios_block_groups': iosBlockGroupsMigration,
  '0012_co_parents': coParentsMigration,
  '0013_two_factor_export': twoFactorExportMigration,
  '0014_family_versions': familyVersionsMigration,
  '0015_mac_principal_function': macPrincipalFunctionMigration,
  '0016_ios_app_block_groups': iosAppBlockGroupsMigration,
  '0017_screenshot_uploads': screenshotUploadsMigration,
  '0018_connection_code_guesses': connectionCodeGuessesMigration,
  '0019_activity_alerts': activityAlertsMigration,
  '0020_push_notifications': pushNotificationsMigration,
  '0021_browser_devices': browserDevicesMigration,
  '0022_hardening_three': hardeningThreeMigration,
  '0023_dns_blocked_names': dnsBlockedNamesMigration,
  '0024_requested_suspension_duration': requestedSuspensionDurationMigration,
  '0025_dns_devices': dnsDevicesMigration,
  '0026_screen_time': screenTimeMigration,
  '0027_dns_removal_password_encrypted': dnsRemovalPasswordEncryptedMigration,
};

export function migrationProvider(dialect: DialectName): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return Object.fromEntries(
        Object.entries(migrations).map(([name, migration]) => [name, migration(dialect)]),
      );
    },
  };
}
