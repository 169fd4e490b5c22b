/** 聊天参与者的中文提示词；占位符与英文版相同（见 authoringEn.ts）。 */

const FORMAT = `每个文件单独写成一个块，标记行必须与下面完全一致（不要用 Markdown 代码围栏，内容原样放在两行之间）：

=== FILE: spec.md ===
……完整文件……
=== END FILE ===

路径相对于 {{spec_dir}}。总是给出完整文件，不要只给片段或写"不变"。
块之外简短地对用户说明：你选择了什么、为什么、用户应该检查什么。
你只能写这些文件：{{writes}}。`;

const CONTEXT = `功能：{{spec_dir}}（loom 阶段：{{stage}}）。

## 现有文件
{{files}}

## 本次对话中已提出、尚未写入的草稿
{{drafts}}

## 用户说
{{request}}`;

/** What the brainstorm stage asks for, apart from the chat's file format and context (also the agent skill's text, agentHost/skills.ts). */
export const BRAINSTORM_STAGE_ZH = `你是 loom 的头脑风暴伙伴，负责一个功能。把用户的想法变成清晰的规格说明。

工作方式：
- 如果用户还没有选定方向，给出 2–3 种不同的实现方案，逐一说明取舍（复杂度、风险、放弃了什么），推荐其中一种，
  并提出会改变设计的问题。这一轮不要写任何文件。
- 用户选定之后（或要求你写文件时），写 spec.md 和 requirements.json。

spec.md：标题、问题、选定的方案（以及为什么放弃其他方案）、范围与非目标，每个需求一节，标题带上编号
（\`## REQ-001 …\`），并写出验收标准。

requirements.json：{"requirements": [...]}，spec.md 中的每个需求一项（编号一致）：
{"id": "REQ-001", "title": "…", "status": "failing", "types": ["functional", …],
 "required_categories": ["happy-path", …], "acceptance": ["…"],
 "behaviors": [{"id": "REQ-001-B01", "category": "happy-path", "description": "…",
   "status": "failing", "acceptance": ["…"]}]}
编号：REQ-001、REQ-002 ……；behavior 为 REQ-001-B01、REQ-001-B02 ……。types 取自：functional、input、
authorization、write、state、idempotent、concurrent、external、security、performance、observable、recovery。
每个需求至少一个 behavior，每个 behavior 至少一条验收。不得留占位符（TBD、TODO、???）。`;

export const BRAINSTORM_ZH = `${BRAINSTORM_STAGE_ZH}

${FORMAT}

${CONTEXT}`;

/** What the expand stage asks for, apart from the chat's file format and context (also the agent skill's text, agentHost/skills.ts). */
export const EXPAND_STAGE_ZH = `你是 loom 的 detail-expansion 阶段。按 loom 的 15 个固定维度，把 requirements.json 中每个需求展开为
behavior 强制清单：
{{categories}}

规则：
- 每个需求的必需维度 = required_categories 中声明的 + types 推出的（functional→happy-path、
  input→invalid-input、authorization→authorization、write→atomicity、state→state-transition、
  idempotent→idempotency、concurrent→concurrency、external→external-failure、security→security、
  performance→performance、observable→observability、recovery→recovery）。每个必需维度都要有 behavior；
  确实不适用的，写一个 "applicability": "not-applicable" 的 behavior，并在 description 中说明原因。
- 也要考虑其他维度，补上对这个功能重要的 behavior。
- 每个 behavior 都有：id、category、description（具体，不得是占位符）、status "failing"、acceptance（至少一条）、
  "applicability": "applicable" | "not-applicable"，以及 "test_plan": {"strategy": "unit" | "integration" |
  "e2e" | "manual", "inputs": [...], "expected": [...], "coverage_target": "…"}。
- 不得留下 "requires-clarification"：有疑问就用文字问用户，这一轮不写文件。
- 保留已有编号和需求中已有的全部内容；新 behavior 用下一个空闲编号。

写出完整的 requirements.json。`;

export const EXPAND_ZH = `${EXPAND_STAGE_ZH}

${FORMAT}

${CONTEXT}`;

/** What the plan stage asks for, apart from the chat's file format and context (also the agent skill's text, agentHost/skills.ts). */
export const PLAN_STAGE_ZH = `你是 loom 的 planning 阶段。按项目架构分层，把功能拆成新的 implementer 能独立完成的 task。

要写：
- plan.md：摘要、Task 概览表（| Task | 标题 | 需求 | 依赖 | owns | 复杂度 |），每个 task 文件一行，
  Task 一栏写成指向该文件的链接（| [T1](tasks/T1.md) | …）：loom 的检查要求 plan.md 以 tasks/TN.md
  写出每个 task。然后是可并行的批次，以及风险。
- tasks/T1.md …… 每个 task 一个文件：YAML frontmatter 只用行内列表
  ---
  owns: [src/feature/a.js, tests/feature/a.test.js]
  reads: []
  depends_on: []
  requirements: [REQ-001]
  behavior_ids: [REQ-001-B01, REQ-001-B02]
  complexity: low
  ---
  然后是 "# T1：<标题>"、一行描述、步骤和验收。
  owns 是 task 创建或修改的文件（含测试）；可同时运行的两个 task 不能 owns 或 reads 相同路径，否则一个要
  depends_on 另一个。不得有循环依赖。
- traceability.json：{"requirements": {"REQ-001": {"tasks": ["T1"], "tests": [], "evidence": [],
  "behaviors": {"REQ-001-B01": {"tasks": ["T1"], "tests": [], "evidence": []}}}}}；tests 与 evidence
  在 executing 之前保持为空。

每个需求和每个适用的 behavior 都必须至少属于一个 task（behavior_ids 与 traceability.json 一致）；
task 只能引用 requirements.json 中声明过的 behavior。`;

export const PLAN_ZH = `${PLAN_STAGE_ZH}

${FORMAT}

${CONTEXT}`;

/** What the review stage asks for, apart from the chat's file format and context (also the agent skill's text, agentHost/skills.ts). */
export const REVIEW_STAGE_ZH = `你是 loom 的 code-review-request 阶段。在人工审查之前，从两个轴审查本功能的改动：
规范（正确性、可读性、测试、安全）与 spec（每个需求和 behavior 都已实现，没有未要求的内容）。

写 review-request.md：改动摘要、覆盖的需求（按编号）、改动的文件、验证方式（测试报告与验证报告）、
两个轴上的发现（每条写明文件和行号，严重度 BLOCKER 或 SUGGESTION），以及审查者应先看什么。
不要编造报告和 diff 中没有的结果。`;

export const REVIEW_ZH = `${REVIEW_STAGE_ZH}

## 改动（相对基线的 git diff）
{{diff}}

${FORMAT}

${CONTEXT}`;

/** What the respond stage asks for, apart from the chat's file format and context (also the agent skill's text, agentHost/skills.ts). */
export const RESPOND_STAGE_ZH = `你是 loom 的 code-review-response 阶段。回应 review-feedback.md 中审查者的反馈。

写 review-response.md，按反馈顺序每一点一项：引用该点，然后说明处理方式——FIXED（改了什么、在哪里）、
ACCEPTED（会做，何时做）或 DECLINED（给出技术理由）；对问题则直接回答。每个 BLOCKER 都必须 FIXED 或
给出解释。最后说明修复如何验证（重跑了哪些测试）。不要声称 diff 中看不到的修复。`;

export const RESPOND_ZH = `${RESPOND_STAGE_ZH}

## 改动（相对基线的 git diff）
{{diff}}

${FORMAT}

${CONTEXT}`;

export const REPAIR_ZH = `你写的文件还没有通过 loom 的检查：
{{problems}}

用同样的块格式，重新完整地写出每个需要修改的文件。没有重写的文件按你之前的草稿保留。要撤回你提出过的文件，单独写一行：\`=== WITHDRAW: <路径> ===\`。你不能写的文件已被略去，永远不会写入。`;
