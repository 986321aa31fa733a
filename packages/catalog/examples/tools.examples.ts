/**
 * The README's Tools quick start (region `tools`) and prompt (region `prompt`), over the sample
 * estate. test/examples.test.ts runs them and checks what the comments say.
 */
// #region tools
import { createCatalogLayer, sampleEstateDir, Workspace } from '@cloudg/catalog';
// #endregion tools

export async function toolsQuickStart() {
  // #region tools
  const ws = new Workspace({ allowedRoots: [sampleEstateDir()], outputDir: '/tmp/cloudg-out' });
  const layer = createCatalogLayer({ workspace: ws }); // allow-all policy unless one is given
  await layer.callTool('load_dataset', { path: 'inventory', name: 'sample' });
  const page = await layer.callTool('find_assets', { tag: 'owner=web-team', fields: ['name', 'tags'] });
  // page.structured -> { dataset: 'sample', total: 3, ..., items: [{ id: 'web-1', name: 'web-1', tags: {...} }, ...] }
  // #endregion tools

  // #region prompt
  const prompt = await layer.getPrompt('blast_radius_assessment', { ref: 'kms-main' });
  // prompt.messages[1]: Context for this task (JSON): {"dataset":"sample","asset":{...},
  //   "transitive_dependents":12,"accounts_affected":["111111111111"],"direct_dependents":[...]}
  // prompt.messages[2]: the embedded cloudg://assets/kms-main document, as a read of it returns it
  // #endregion prompt
  return { page, prompt };
}
