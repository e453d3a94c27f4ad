import type { BlockRule, WebPolicy } from '@keyward/contract/shared';
import type { Db } from '../db/database.ts';
import { fromDbJson } from '../db/values.ts';

// What an iOS device enforces (server-behaviour §5 ConnectedRules): the rules of its enabled block
// groups plus its own custom rules, and its web policy with the domain list where it has one.

export async function enabledGroupIds(db: Db, deviceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('ios_device_block_groups')
    .select('block_group_id')
    .where('device_id', '=', deviceId)
    .orderBy('block_group_id')
    .execute();
  return rows.map((row) => row.block_group_id);
}

export async function policyDomains(db: Db, deviceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('ios_web_policy_domains')
    .select('domain')
    .where('device_id', '=', deviceId)
    .orderBy('domain')
    .execute();
  return rows.map((row) => row.domain);
}

export async function customRules(db: Db, deviceId: string) {
  const rows = await db
    .selectFrom('ios_block_rules')
    .select(['id', 'rule'])
    .where('device_id', '=', deviceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, rule: fromDbJson<BlockRule>(row.rule) }));
}

export async function enforcedRules(db: Db, deviceId: string, policy: WebPolicy) {
  const groupIds = await enabledGroupIds(db, deviceId);
  const groupRules =
    groupIds.length === 0
      ? []
      : await db
          .selectFrom('ios_block_rules')
          .select('rule')
          .where('group_id', 'in', groupIds)
          .orderBy('group_id')
          .orderBy('id')
          .execute();
  const blockRules = [
    ...groupRules.map((row) => fromDbJson<BlockRule>(row.rule)),
    ...(await customRules(db, deviceId)).map((row) => row.rule),
  ];
  const hasDomains = policy === 'blockAdultAnd' || policy === 'blockAllExcept';
  return {
    blockRules,
    webPolicy: hasDomains
      ? { case: policy, domains: await policyDomains(db, deviceId) }
      : { case: policy },
  };
}
