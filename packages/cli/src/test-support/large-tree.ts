/**
 * A 152-node JSON tree for the editor's tests: a root, an agent, 6 topics of 4 subtopics of 5
 * leaves each, with long names (so labels are truncated) and one chunk per node.
 */
export function largeTree(): { format: string; version: number; nodes: Record<string, unknown>[] } {
  const nodes: Record<string, unknown>[] = [
    { id: 1, type: 'root', name: 'root' },
    { id: 2, type: 'agent', parent: 1, name: 'helpdesk', isPrimary: true },
  ];
  let id = 3;
  const topics = ['billing', 'shipping', 'returns', 'accounts', 'products', 'warranty'];
  for (const topic of topics) {
    const topicId = id++;
    nodes.push({
      id: topicId,
      type: 'empty',
      parent: 2,
      name: `${topic} questions and requests`,
      isAnchor: true,
      chunks: [`a question about ${topic}`],
    });
    for (let sub = 1; sub <= 4; sub++) {
      const subId = id++;
      nodes.push({
        id: subId,
        type: 'empty',
        parent: topicId,
        name: `${topic} area ${sub} with a long descriptive name`,
        chunks: [`${topic} topic number ${sub}`],
      });
      for (let leaf = 1; leaf <= 5; leaf++) {
        const leafId = id++;
        nodes.push({
          id: leafId,
          type: 'emit',
          parent: subId,
          name: `${topic} ${sub}.${leaf} answer`,
          chunks: [`${topic} case ${sub} ${leaf}`],
          emit: { message: { type: 'static', content: `Answer ${topic} ${sub}.${leaf}` } },
        });
      }
    }
  }
  return { format: 'treeagent-tree', version: 1, nodes };
}
