"""A minimal Gradio demo: score one example and show the additions each side was scored on.

Run with ``python app.py``; it serves on 127.0.0.1 (port from ``GRADIO_SERVER_PORT``).
"""

import gradio as gr

from update_rouge import score_examples


def score_one(source: str, reference: str, prediction: str):
    """Return (reference additions, prediction additions, rows of [type, P, R, F1] to 4 decimals)."""
    example = score_examples(sources=[source], predictions=[prediction], references=[reference])[0]
    rows = [
        [rouge_type, f"{s.precision:.4f}", f"{s.recall:.4f}", f"{s.fmeasure:.4f}"]
        for rouge_type, s in example.scores.items()
    ]
    return "\n".join(example.reference_additions[0]), "\n".join(example.prediction_additions), rows


def build_demo() -> gr.Blocks:
    with gr.Blocks(title="UpdateROUGE") as demo:
        gr.Markdown("# UpdateROUGE\nROUGE over the sentences a text adds to its source.")
        source = gr.Textbox(label="Source", lines=5)
        reference = gr.Textbox(label="Reference", lines=5)
        prediction = gr.Textbox(label="Prediction", lines=5)
        button = gr.Button("Score")
        reference_additions = gr.Textbox(label="Reference additions", lines=4)
        prediction_additions = gr.Textbox(label="Prediction additions", lines=4)
        table = gr.Dataframe(headers=["rouge type", "precision", "recall", "F1"], label="Scores")
        button.click(score_one, [source, reference, prediction], [reference_additions, prediction_additions, table])
    return demo


if __name__ == "__main__":
    build_demo().launch(server_name="127.0.0.1")
