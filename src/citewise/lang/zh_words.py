"""The small, general Chinese vocabulary that CC-CEDICT lacks or gets wrong for research text.

Everything here is general: question words (what kind of answer is wanted) and the common
terms of scientific writing and evaluation. Nothing names a paper, a data set or an answer;
the library's own words decide between a dictionary entry's senses (agent/bridge/crosslingual.py).
"""

from __future__ import annotations

# Question forms, longest first: Chinese words -> the English that agent/ask/question.py reads.
# "{}" in a form is where the question's translated terms go (a whole-question template).
QUESTION_FORMS: tuple[tuple[str, str], ...] = (
    ("代表什么", "What does {} stand for?"),
    ("是什么意思", "What does {} mean?"),
    ("全称是什么", "What does {} stand for?"),
    ("的全称", "What does {} stand for?"),
    ("的标题是什么", "What is the title of {}?"),
    ("的题目是什么", "What is the title of {}?"),
    ("显示了什么", "What does {} show?"),
    ("叫什么名字", "What is the name of {}?"),
    ("的名称是什么", "What is the name of {}?"),
    ("展示了什么", "What does {} show?"),
)
QUESTION_WORDS: tuple[tuple[str, str], ...] = (
    ("多长时间", "how long"),
    ("多久", "how long"),
    ("多长", "how long"),
    ("多大比例", "what share"),
    ("多少百分比", "what percentage"),
    ("百分之多少", "what percentage"),
    ("比例是多少", "what proportion"),
    ("多少倍", "how many times"),
    ("几倍", "how many times"),
    ("是多少", "what"),
    ("为多少", "what"),
    ("多少", "how many"),
    ("几个", "how many"),
    ("几篇", "how many"),
    ("哪些论文", "which papers"),
    ("哪几篇论文", "which papers"),
    ("所有论文", "across all papers"),
    ("各篇论文", "across all papers"),
    ("每篇论文", "across all papers"),
    ("哪些", "which"),
    ("哪个", "which"),
    ("哪种", "which"),
    ("哪两个", "which two"),
    ("什么时候", "when"),
    ("何时", "when"),
    ("哪一年", "which year"),
    ("哪年", "which year"),
    ("哪一页", "which page"),
    ("第几页", "which page"),
    ("哪一", "which"),
    ("什么", "what"),
    ("是如何", "how were"),
    ("如何", "how were"),
    ("怎样", "how were"),
    ("怎么", "how were"),
    ("为什么", "why"),
    ("为何", "why"),
    ("谁", "who"),
    ("对比", "compare"),
    ("比较", "compare"),
    ("是否", "whether"),
)
# "几" and "哪" before a measure word ask "how many" and "which" ("几幅图", "哪所大学"):
# every measure word of a count, not only 个 and 篇; a measure word that is itself what is
# counted ("几章", "多少页": chapters, pages) is asked with its noun.
MEASURE_WORDS = "个篇项次种位名份张幅条组类家所本部件处台轮"
COUNTED_UNITS = {
    "章": "chapters",
    "节": "sections",
    "页": "pages",
    "段": "paragraphs",
    "句": "sentences",
    "行": "rows",
    "列": "columns",
    "例": "cases",
}
QUESTION_WORDS += tuple((f"几{m}", "how many") for m in MEASURE_WORDS if f"几{m}" != "几个")
QUESTION_WORDS += tuple(
    (f"{asked}{unit}", f"how many {noun}")
    for unit, noun in COUNTED_UNITS.items()
    for asked in ("几", "多少")
)
QUESTION_WORDS += tuple(
    (f"哪{m}", "which") for m in (*MEASURE_WORDS, *COUNTED_UNITS) if m not in "个种"
)

# "X 比 Y 快多少": the adjective right before the question word, as its English comparative.
COMPARATIVES: dict[str, str] = {
    "快": "faster",
    "慢": "slower",
    "高": "higher",
    "低": "lower",
    "大": "larger",
    "小": "smaller",
    "多": "more",
    "少": "fewer",
    "长": "longer",
    "短": "shorter",
    "好": "better",
    "差": "worse",
}

# Common terms of research writing, methods and evaluation (CC-CEDICT lacks most of them or
# lists an everyday sense first).
GLOSSARY: dict[str, tuple[str, ...]] = {
    "表": ("table",),
    "表格": ("table", "tables"),
    "图": ("figure",),
    "页": ("pages", "page"),
    "准确率": ("accuracy",),
    "准确度": ("accuracy",),
    "精确率": ("precision",),
    "精度": ("precision", "accuracy"),
    "召回率": ("recall",),
    "错误率": ("error rate",),
    "误差": ("error",),
    "得分": ("score",),
    "分数": ("score",),
    "困惑度": ("perplexity",),
    "优化器": ("optimizer",),
    "优化": ("optimization", "optimize"),
    "学习率": ("learning rate",),
    "批量大小": ("batch size",),
    "预训练": ("pretrained", "pretraining"),
    "训练": ("training", "trained", "train"),
    "微调": ("fine-tuning", "fine-tuned"),
    "词表": ("vocabulary",),
    "词汇表": ("vocabulary",),
    "嵌入": ("embeddings", "embedding"),
    "向量": ("vector",),
    "模型": ("model",),
    "数据集": ("dataset", "data"),
    "语料库": ("corpus",),
    "语料": ("corpus",),
    "基线": ("baseline",),
    "开发集": ("development set",),
    "测试集": ("test set",),
    "训练集": ("training set",),
    "标注": ("annotation", "labeling"),
    "标注者": ("annotator",),
    "一致性": ("agreement",),
    "聚类": ("clustering",),
    "簇": ("clusters",),
    "抽取": ("extraction",),
    "提取": ("extraction",),
    "元数据": ("metadata",),
    "参考文献": ("bibliography", "references"),
    "引用": ("citation",),
    "链接": ("link", "links", "linking"),
    "网页": ("web", "web page"),
    "网址": ("URL", "web address"),
    "事后": ("post-hoc", "after the event"),
    "论文": ("paper",),
    "文献": ("literature",),
    "综述": ("review", "survey"),
    "系统综述": ("systematic review",),
    "指南": ("guideline",),
    "实验": ("experiment",),
    "方法": ("method", "approach"),
    "算法": ("algorithm",),
    "参数": ("parameters",),
    "估计": ("estimate",),
    "样本": ("sample",),
    "受访者": ("respondents",),
    "参与者": ("participants",),
    "患者": ("patients",),
    "研究": ("study",),
    "分析": ("analysis", "analysed"),
    "评估": ("evaluation",),
    "过滤": ("filtering", "filter"),
    "过滤器": ("filter",),
    "处理": ("processing",),
    "节点": ("nodes",),
    "实体": ("entity",),
    "知识库": ("knowledge base",),
    "片段": ("spans",),
    "相似度": ("similarity",),
    "比对": ("alignment",),
    "似然": ("likelihood",),
    "对数似然": ("log-likelihood",),
    "指数": ("index", "exponential"),
    "速率": ("rate",),
    "率": ("rate",),
    "函数": ("function",),
    "程序": ("programs", "program"),
    "格式": ("formats", "format"),
    "阶段": ("phase", "stage"),
    "级": ("level",),
    # methods, funding and reporting words of papers that CC-CEDICT lacks or lists in an
    # everyday sense first (a sweep of common research vocabulary, not of any question)
    "资助": ("funded", "funding", "supported"),
    "基金": ("fund", "grant", "foundation"),
    "伦理委员会": ("ethics committee",),
    "方案": ("scheme", "protocol", "plan"),
    "机构": ("institution", "organization", "agency", "body"),
    "作者": ("authors", "author"),
    "示例": ("examples", "example"),
    "样例": ("examples", "example", "sample"),
    "提示": ("prompt", "prompts"),
    "模式": ("model", "mode", "pattern"),
    "提示词": ("prompt", "prompts"),
    "求解器": ("solver",),
    "求解": ("solve", "solving"),
    "超参数": ("hyperparameters",),
    "词元": ("token", "tokens"),
    "泛化": ("generalization", "generalize"),
    "消融": ("ablation",),
    "收敛": ("convergence", "converge"),
    "集群": ("cluster",),
    "小节": ("subsection", "section"),
    "唯一": ("unique", "only"),
    "去重": ("deduplication", "deduplicated"),
    "开销": ("overhead", "cost"),
    "均值": ("mean", "average"),
    "随访": ("follow-up",),
    "轮次": ("rounds", "epochs"),
    "批次": ("batch",),
    "显著性": ("significance",),
    "随机化": ("randomization", "randomized"),
    "患病率": ("prevalence",),
    "发病率": ("incidence",),
    "样本量": ("sample size",),
    "通讯作者": ("corresponding author",),
    "图注": ("caption",),
    "标题": ("title",),
    "颜色": ("color", "colour"),
    "题目": ("title",),
    "表头": ("header",),
    "吞吐量": ("throughput",),
    "显存": ("GPU memory",),
    "开源": ("open source", "open-source"),
    "转录本": ("transcript",),
    "系统发育": ("phylogeny", "phylogenetic"),
    "损失函数": ("loss function",),
    "词嵌入": ("word embeddings",),
    "语言模型": ("language model",),
    "强化学习": ("reinforcement learning",),
    "零样本": ("zero-shot",),
    "少样本": ("few-shot",),
    "思维链": ("chain-of-thought",),
    "上下文学习": ("in-context learning",),
    "自我纠正": ("self-correction",),
    "多数投票": ("majority voting",),
    "一阶逻辑": ("first-order logic",),
    # research topics (the words a literature search in Chinese is written with)
    "学术": ("academic", "scholarly"),
    "学术论文": ("academic papers", "scholarly papers"),
    "全文": ("full text",),
    "图谱": ("graph", "atlas"),
    "知识图谱": ("knowledge graph",),
    "多模态": ("multimodal", "multi-modal"),
    "大模型": ("large models", "large language models"),
    "大语言模型": ("large language models",),
    "医学影像": ("medical imaging", "medical images"),
    "影像": ("imaging", "images"),
    "分割": ("segmentation",),
    "检索": ("retrieval", "search"),
    "生成": ("generation", "generative"),
    "康复": ("rehabilitation",),
    "项目": ("programme", "program", "project"),
    "体验": ("experiences", "experience"),
}

# The verb an English paper writes for a Chinese research verb (base form), where
# CC-CEDICT lists a noun or another sense first ("引用" citation, "优于" surpass): read
# where a question's frame needs a verb ("Does S cite more papers than B?").
RESEARCH_VERBS: dict[str, str] = {
    "引用": "cite",
    "提及": "mention",
    "提到": "mention",
    "采用": "adopt",
    "使用": "use",
    "优于": "outperform",
    "超过": "exceed",
    "胜过": "beat",
    "提出": "propose",
    "评估": "evaluate",
    "展示": "show",
    "给出": "give",
    "包含": "include",
    "讨论": "discuss",
    "预测": "predict",
    "绘制": "plot",
    "列出": "list",
    "描述": "describe",
    "报告": "report",
    "发表": "publish",
    "引入": "introduce",
    "来自": "come from",
    "用于": "use",
    "属于": "belong to",
}

# Words that carry no search meaning in a question (particles, measure words, light verbs;
# 每/各 before a measure word is "each", an English stopword too).
STOPWORDS = frozenset(
    """的 了 在 是 中 有 和 与 及 或 把 被 对 为 以 于 从 上 下 里 时 之后 之前 后 前 个 篇 条 项
    次 种 位 名 份 这 那 这个 那个 这篇 这项 其 它 它们 他们 我们 所 用 使用 得到 达到 来 去 也 都
    又 将 会 能 可以 据 根据 说 表示 报告 大约 约 一 一个 一份 什么样 呢 吗 吧 啊 个数
    中的 中有 一共 共 总共 共计 总计 其中 分别
    每次 每个 每位 每名 每项 每篇 每份 每组 每条 每种 每一 各个 各位 各项""".split()
)

# How a research topic is framed ("...的应用现状", "...的最新进展"): no search meaning.
TOPIC_FRAMES = frozenset(
    """现状 进展 最新进展 研究进展 新进展 发展 发展趋势 趋势 概述 综述与展望 展望 探讨 浅析 研究现状
    概况""".split()
)
