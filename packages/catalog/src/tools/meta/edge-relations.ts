/**
 * `explain_edge_type`'s `ontology_relations`: which relation types the ontology writes for an
 * edge of one type. The ontology's rules (src/ontology/infer.ts) are the source of truth:
 *
 * - where an edge type's relations do not depend on the edge's endpoints, CIDR or ports, the
 *   list is read from the rule itself, by asking it about a bare edge of that type;
 * - where they do, a sentence says how they are chosen. Those sentences are checked against the
 *   rules by test/tools/meta-ontology.test.ts, which fails when the relation names they give
 *   differ from what the ontology produces for the edge type.
 *
 * A relationship declared on the edge is not covered here: the tool's description says how it
 * replaces or precedes these.
 */
import type { NetworkEdge } from '../../model/edge.js';
import type { EdgeType } from '../../model/vocabulary.js';
import { inferRelations } from '../../ontology/infer.js';

/**
 * Edge types whose relations depend on more than the type. The reference's CONTAINS sentence is
 * kept word for word (its documented example). Where the reference's meta section disagrees
 * with its ontology section, the ontology wins: a NACL rule yields no relation (not the
 * ingress/egress and port relations), a security group rule does not yield PROTECTED_BY_SG
 * (that comes from ATTACHED_TO edges and instance metadata), and an IAM trust across accounts
 * yields ROLE_ASSUMES_ROLE as well as CROSS_ACCOUNT_TRUST.
 */
const CHOSEN: Partial<Record<EdgeType, string>> = {
  SECURITY_GROUP_RULE:
    'read from the direction, CIDR and ports: INGRESS_ALLOWED or EGRESS_ALLOWED; INTERNET_REACHABLE when the far side is the internet, else CIDR_RESTRICTED when the rule names a CIDR; then ALL_TRAFFIC for every port, else ONLY_SSH, ONLY_HTTP, ONLY_HTTPS and ONLY_RDP for each of 22, 80, 443 and 3389 it opens, else PORT_RESTRICTED',
  NACL_RULE:
    'none: the ontology keeps a network ACL rule only as an EdgeMetadata node (its CIDR, ports and protocol)',
  IAM_TRUST: 'ROLE_ASSUMES_ROLE, plus CROSS_ACCOUNT_TRUST when the endpoints are in different accounts',
  IAM_POLICY_ATTACHMENT:
    'inferred from the endpoint types: USER_HAS_POLICY or GROUP_HAS_POLICY when a user or group is at either end (the source looked at first), else ROLE_HAS_POLICY',
  CONTAINS:
    'inferred from both endpoint types (VPC_CONTAINS_SUBNET, SUBNET_CONTAINS_INSTANCE, CLUSTER_CONTAINS_SERVICE, ORG_CONTAINS_ACCOUNT), else the generic CONTAINS',
  ATTACHED_TO:
    'inferred from the target type: PROTECTED_BY_SG for a security group, NSG or firewall rule, PROTECTED_BY_NACL for a network ACL, else DEPENDS_ON',
};

/** An edge of the type with nothing else said about it: no endpoints known, no CIDR, ports or relationship. */
function bareEdge(type: EdgeType): NetworkEdge {
  return {
    id: 'explain_edge_type',
    source_id: 'source',
    target_id: 'target',
    edge_type: type,
    relationship: null,
    properties: {},
    description: null,
    ports: [],
    port_range: null,
    protocol: null,
    cidr: null,
    direction: 'ingress',
  };
}

/** The relation types an edge type becomes, or how they are chosen when that depends on the edge. */
export function ontologyRelationsOf(type: EdgeType): string[] | string {
  return CHOSEN[type] ?? inferRelations(bareEdge(type), null, null);
}
