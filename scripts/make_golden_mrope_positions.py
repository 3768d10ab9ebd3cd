#!/usr/bin/python3
"""Golden vectors for mropePositions: tests/golden/mrope-positions.json.

A verbatim transcription of Hugging Face transformers' get_rope_index of
  Qwen2VLModel      (src/transformers/models/qwen2_vl/modeling_qwen2_vl.py)
  Qwen2_5_VLModel   (src/transformers/models/qwen2_5_vl/modeling_qwen2_5_vl.py)
at huggingface/transformers@00b676f8f0489b88652a31d70751cc540dd06305 (`self.config` becomes
the `config` argument; the bodies are unchanged, quirks included: Qwen2.5-VL's
torch.as_tensor(second_per_grid_t, dtype=int64) truncates seconds per grid to an integer).
transformers itself cannot be installed here; torch (Debian's 1.13) runs the transcription.

Each case is a prompt of posenc segments turned into the input_ids the models' processors
make: text tokens are ordinary ids, a text segment before a vision segment ends with
<|vision_start|> and one after it starts with <|vision_end|>, an image is image_pad tokens
(t * (h / m) * (w / m) of them), a video video_pad tokens; image_grid_thw / video_grid_thw /
second_per_grid_ts as the processor returns them (None when there are none).

Run with Debian's python (torch 1.13): /usr/bin/python3 scripts/make_golden_mrope_positions.py
"""
import json
import pathlib
from types import SimpleNamespace
from typing import Optional

import torch

# Qwen2-VL / Qwen2.5-VL config.json token ids.
VISION_START, VISION_END, IMAGE_PAD, VIDEO_PAD = 151652, 151653, 151655, 151656


# ---- Qwen2VLModel.get_rope_index, verbatim -----------------------------------------------------

def qwen2_vl_get_rope_index(
    config,
    input_ids: Optional[torch.LongTensor] = None,
    image_grid_thw: Optional[torch.LongTensor] = None,
    video_grid_thw: Optional[torch.LongTensor] = None,
    attention_mask: Optional[torch.Tensor] = None,
):
    spatial_merge_size = config.vision_config.spatial_merge_size
    image_token_id = config.image_token_id
    video_token_id = config.video_token_id
    vision_start_token_id = config.vision_start_token_id
    mrope_position_deltas = []
    if input_ids is not None and (image_grid_thw is not None or video_grid_thw is not None):
        total_input_ids = input_ids
        if attention_mask is None:
            attention_mask = torch.ones_like(total_input_ids)
        position_ids = torch.ones(
            3, input_ids.shape[0], input_ids.shape[1], dtype=input_ids.dtype, device=input_ids.device
        )
        image_index, video_index = 0, 0
        for i, input_ids in enumerate(total_input_ids):
            input_ids = input_ids[attention_mask[i].to(input_ids.device) == 1]
            image_nums, video_nums = 0, 0
            vision_start_indices = torch.argwhere(input_ids == vision_start_token_id).squeeze(1)
            vision_tokens = input_ids[vision_start_indices + 1]
            image_nums = (vision_tokens == image_token_id).sum()
            video_nums = (vision_tokens == video_token_id).sum()
            input_tokens = input_ids.tolist()
            llm_pos_ids_list: list = []
            st = 0
            remain_images, remain_videos = image_nums, video_nums
            for _ in range(image_nums + video_nums):
                if image_token_id in input_tokens and remain_images > 0:
                    ed_image = input_tokens.index(image_token_id, st)
                else:
                    ed_image = len(input_tokens) + 1
                if video_token_id in input_tokens and remain_videos > 0:
                    ed_video = input_tokens.index(video_token_id, st)
                else:
                    ed_video = len(input_tokens) + 1
                if ed_image < ed_video:
                    t, h, w = (
                        image_grid_thw[image_index][0],
                        image_grid_thw[image_index][1],
                        image_grid_thw[image_index][2],
                    )
                    image_index += 1
                    remain_images -= 1
                    ed = ed_image
                else:
                    t, h, w = (
                        video_grid_thw[video_index][0],
                        video_grid_thw[video_index][1],
                        video_grid_thw[video_index][2],
                    )
                    video_index += 1
                    remain_videos -= 1
                    ed = ed_video
                llm_grid_t, llm_grid_h, llm_grid_w = (
                    t.item(),
                    h.item() // spatial_merge_size,
                    w.item() // spatial_merge_size,
                )
                text_len = ed - st

                st_idx = llm_pos_ids_list[-1].max() + 1 if len(llm_pos_ids_list) > 0 else 0
                llm_pos_ids_list.append(torch.arange(text_len).view(1, -1).expand(3, -1) + st_idx)

                t_index = torch.arange(llm_grid_t).view(-1, 1).expand(-1, llm_grid_h * llm_grid_w).flatten()
                h_index = torch.arange(llm_grid_h).view(1, -1, 1).expand(llm_grid_t, -1, llm_grid_w).flatten()
                w_index = torch.arange(llm_grid_w).view(1, 1, -1).expand(llm_grid_t, llm_grid_h, -1).flatten()
                llm_pos_ids_list.append(torch.stack([t_index, h_index, w_index]) + text_len + st_idx)
                st = ed + llm_grid_t * llm_grid_h * llm_grid_w

            if st < len(input_tokens):
                st_idx = llm_pos_ids_list[-1].max() + 1 if len(llm_pos_ids_list) > 0 else 0
                text_len = len(input_tokens) - st
                llm_pos_ids_list.append(torch.arange(text_len).view(1, -1).expand(3, -1) + st_idx)

            llm_positions = torch.cat(llm_pos_ids_list, dim=1).reshape(3, -1)
            position_ids[..., i, attention_mask[i] == 1] = llm_positions.to(position_ids.device)
            mrope_position_deltas.append(llm_positions.max() + 1 - len(total_input_ids[i]))
        mrope_position_deltas = torch.tensor(mrope_position_deltas, device=input_ids.device).unsqueeze(1)
        return position_ids, mrope_position_deltas
    else:
        if attention_mask is not None:
            position_ids = attention_mask.long().cumsum(-1) - 1
            position_ids.masked_fill_(attention_mask == 0, 1)
            position_ids = position_ids.unsqueeze(0).expand(3, -1, -1).to(attention_mask.device)
            max_position_ids = position_ids.max(0, keepdim=False)[0].max(-1, keepdim=True)[0]
            mrope_position_deltas = max_position_ids + 1 - attention_mask.shape[-1]
        else:
            position_ids = (
                torch.arange(input_ids.shape[1], device=input_ids.device)
                .view(1, 1, -1)
                .expand(3, input_ids.shape[0], -1)
            )
            mrope_position_deltas = torch.zeros(
                [input_ids.shape[0], 1],
                device=input_ids.device,
                dtype=input_ids.dtype,
            )

        return position_ids, mrope_position_deltas


# ---- Qwen2_5_VLModel.get_rope_index, verbatim --------------------------------------------------

def qwen2_5_vl_get_rope_index(
    config,
    input_ids: Optional[torch.LongTensor] = None,
    image_grid_thw: Optional[torch.LongTensor] = None,
    video_grid_thw: Optional[torch.LongTensor] = None,
    second_per_grid_ts: Optional[torch.Tensor] = None,
    attention_mask: Optional[torch.Tensor] = None,
):
    spatial_merge_size = config.vision_config.spatial_merge_size
    image_token_id = config.image_token_id
    video_token_id = config.video_token_id
    vision_start_token_id = config.vision_start_token_id
    mrope_position_deltas = []
    if input_ids is not None and (image_grid_thw is not None or video_grid_thw is not None):
        total_input_ids = input_ids
        if attention_mask is None:
            attention_mask = torch.ones_like(total_input_ids)
        position_ids = torch.ones(
            3,
            input_ids.shape[0],
            input_ids.shape[1],
            dtype=input_ids.dtype,
            device=input_ids.device,
        )
        image_index, video_index = 0, 0
        attention_mask = attention_mask.to(total_input_ids.device)
        for i, input_ids in enumerate(total_input_ids):
            input_ids = input_ids[attention_mask[i] == 1]
            image_nums, video_nums = 0, 0
            vision_start_indices = torch.argwhere(input_ids == vision_start_token_id).squeeze(1)
            vision_tokens = input_ids[vision_start_indices + 1]
            image_nums = (vision_tokens == image_token_id).sum()
            video_nums = (vision_tokens == video_token_id).sum()
            input_tokens = input_ids.tolist()
            llm_pos_ids_list: list = []
            st = 0
            remain_images, remain_videos = image_nums, video_nums
            for _ in range(image_nums + video_nums):
                if image_token_id in input_tokens and remain_images > 0:
                    ed_image = input_tokens.index(image_token_id, st)
                else:
                    ed_image = len(input_tokens) + 1
                if video_token_id in input_tokens and remain_videos > 0:
                    ed_video = input_tokens.index(video_token_id, st)
                else:
                    ed_video = len(input_tokens) + 1
                if ed_image < ed_video:
                    t, h, w = (
                        image_grid_thw[image_index][0],
                        image_grid_thw[image_index][1],
                        image_grid_thw[image_index][2],
                    )
                    second_per_grid_t = 0
                    image_index += 1
                    remain_images -= 1
                    ed = ed_image

                else:
                    t, h, w = (
                        video_grid_thw[video_index][0],
                        video_grid_thw[video_index][1],
                        video_grid_thw[video_index][2],
                    )
                    if second_per_grid_ts is not None:
                        second_per_grid_t = second_per_grid_ts[video_index]
                    else:
                        second_per_grid_t = 1.0
                    video_index += 1
                    remain_videos -= 1
                    ed = ed_video
                llm_grid_t, llm_grid_h, llm_grid_w = (
                    t.item(),
                    h.item() // spatial_merge_size,
                    w.item() // spatial_merge_size,
                )
                text_len = ed - st

                st_idx = llm_pos_ids_list[-1].max() + 1 if len(llm_pos_ids_list) > 0 else 0
                llm_pos_ids_list.append(torch.arange(text_len).view(1, -1).expand(3, -1) + st_idx)

                range_tensor = torch.arange(llm_grid_t).view(-1, 1)
                expanded_range = range_tensor.expand(-1, llm_grid_h * llm_grid_w)

                ## normalize type, send to device.
                second_per_grid_t = torch.as_tensor(
                    second_per_grid_t, dtype=range_tensor.dtype, device=range_tensor.device
                )

                time_tensor = expanded_range * second_per_grid_t * config.vision_config.tokens_per_second

                time_tensor_long = time_tensor.long()
                t_index = time_tensor_long.flatten()

                h_index = torch.arange(llm_grid_h).view(1, -1, 1).expand(llm_grid_t, -1, llm_grid_w).flatten()
                w_index = torch.arange(llm_grid_w).view(1, 1, -1).expand(llm_grid_t, llm_grid_h, -1).flatten()
                llm_pos_ids_list.append(torch.stack([t_index, h_index, w_index]) + text_len + st_idx)
                st = ed + llm_grid_t * llm_grid_h * llm_grid_w

            if st < len(input_tokens):
                st_idx = llm_pos_ids_list[-1].max() + 1 if len(llm_pos_ids_list) > 0 else 0
                text_len = len(input_tokens) - st
                llm_pos_ids_list.append(torch.arange(text_len).view(1, -1).expand(3, -1) + st_idx)

            llm_positions = torch.cat(llm_pos_ids_list, dim=1).reshape(3, -1)
            position_ids[..., i, attention_mask[i] == 1] = llm_positions.to(position_ids.device)
            mrope_position_deltas.append(llm_positions.max() + 1 - len(total_input_ids[i]))
        mrope_position_deltas = torch.tensor(mrope_position_deltas, device=input_ids.device).unsqueeze(1)
        return position_ids, mrope_position_deltas
    else:
        if attention_mask is not None:
            position_ids = attention_mask.long().cumsum(-1) - 1
            position_ids.masked_fill_(attention_mask == 0, 1)
            position_ids = position_ids.unsqueeze(0).expand(3, -1, -1).to(attention_mask.device)
            max_position_ids = position_ids.max(0, keepdim=False)[0].max(-1, keepdim=True)[0]
            mrope_position_deltas = max_position_ids + 1 - attention_mask.shape[-1]
        else:
            position_ids = (
                torch.arange(input_ids.shape[1], device=input_ids.device)
                .view(1, 1, -1)
                .expand(3, input_ids.shape[0], -1)
            )
            mrope_position_deltas = torch.zeros(
                [input_ids.shape[0], 1],
                device=input_ids.device,
                dtype=input_ids.dtype,
            )

        return position_ids, mrope_position_deltas


# ---- prompts -------------------------------------------------------------------------------------

def inputs_of(segments, merge):
    """input_ids, image_grid_thw, video_grid_thw, second_per_grid_ts as the processor gives them."""
    ids, images, videos, seconds = [], [], [], []
    for k, segment in enumerate(segments):
        if "text" in segment:
            n = segment["text"]
            run = [1000 + (j % 500) for j in range(n)]
            if k > 0 and "text" not in segments[k - 1]:
                run[0] = VISION_END
            if k + 1 < len(segments) and "text" not in segments[k + 1]:
                run[-1] = VISION_START
            ids += run
        else:
            vision = "image" if "image" in segment else "video"
            assert k > 0 and "text" in segments[k - 1], "a vision segment follows the text holding <|vision_start|>"
            t, h, w = segment[vision]
            ids += [IMAGE_PAD if vision == "image" else VIDEO_PAD] * (t * (h // merge) * (w // merge))
            (images if vision == "image" else videos).append([t, h, w])
            if vision == "video" and "secondsPerGrid" in segment:
                seconds.append(segment["secondsPerGrid"])
    assert not seconds or len(seconds) == len(videos), "secondsPerGrid for every video or none"
    return (
        torch.tensor([ids], dtype=torch.int64),
        torch.tensor(images, dtype=torch.int64) if images else None,
        torch.tensor(videos, dtype=torch.int64) if videos else None,
        torch.tensor(seconds, dtype=torch.float32) if seconds else None,
    )


CASES = [
    # name, segments, spatialMergeSize, tokensPerSecond (Qwen2.5-VL)
    ("text only", [{"text": 7}], 2, 2),
    ("text + one image", [{"text": 5}, {"image": [1, 4, 6]}, {"text": 3}], 2, 2),
    ("text + image + text + video + text",
     [{"text": 4}, {"image": [1, 6, 4]}, {"text": 3}, {"video": [3, 4, 4]}, {"text": 5}], 2, 2),
    ("two images", [{"text": 2}, {"image": [1, 2, 2]}, {"text": 2}, {"image": [1, 4, 8]}, {"text": 1}], 2, 2),
    ("a video, secondsPerGrid 0.5 (truncated to 0 by Qwen2.5-VL)",
     [{"text": 3}, {"video": [4, 4, 6], "secondsPerGrid": 0.5}, {"text": 2}], 2, 2),
    ("a video, secondsPerGrid 2", [{"text": 3}, {"video": [4, 4, 6], "secondsPerGrid": 2.0}, {"text": 2}], 2, 2),
    ("a video, secondsPerGrid 2.7 (truncated to 2)",
     [{"text": 1}, {"video": [3, 2, 2], "secondsPerGrid": 2.7}, {"text": 1}], 2, 2),
    ("a video without secondsPerGrid (1.0), tokensPerSecond 25",
     [{"text": 3}, {"video": [3, 2, 4]}, {"text": 2}], 2, 25),
    ("two videos and an image, secondsPerGrid 1 and 3, tokensPerSecond 4",
     [{"text": 2}, {"video": [2, 2, 2], "secondsPerGrid": 1.0}, {"text": 2}, {"image": [1, 2, 4]}, {"text": 2},
      {"video": [3, 4, 2], "secondsPerGrid": 3.0}, {"text": 3}], 2, 4),
    ("odd sizes: an image of 14 x 22 patches (7 x 11 merged)", [{"text": 6}, {"image": [1, 14, 22]}, {"text": 4}], 2, 2),
    ("spatialMergeSize 1, odd grids", [{"text": 2}, {"image": [1, 3, 5]}, {"text": 1}, {"video": [2, 5, 3]}, {"text": 2}],
     1, 2),
    ("spatialMergeSize 4", [{"text": 2}, {"image": [1, 8, 12]}, {"text": 2}], 4, 2),
    ("a prompt ending with an image", [{"text": 3}, {"image": [1, 4, 4]}], 2, 2),
    ("a tall image (more rows than frames and columns)", [{"text": 1}, {"image": [1, 20, 2]}, {"text": 2}], 2, 2),
]


def main():
    cases = []
    for name, segments, merge, tokens_per_second in CASES:
        input_ids, image_grid_thw, video_grid_thw, second_per_grid_ts = inputs_of(segments, merge)
        config = SimpleNamespace(
            vision_config=SimpleNamespace(spatial_merge_size=merge, tokens_per_second=tokens_per_second),
            image_token_id=IMAGE_PAD,
            video_token_id=VIDEO_PAD,
            vision_start_token_id=VISION_START,
        )
        for model in ("qwen2-vl", "qwen2.5-vl"):
            if model == "qwen2-vl":
                position_ids, deltas = qwen2_vl_get_rope_index(config, input_ids, image_grid_thw, video_grid_thw)
            else:
                position_ids, deltas = qwen2_5_vl_get_rope_index(
                    config, input_ids, image_grid_thw, video_grid_thw, second_per_grid_ts)
            seq_len = input_ids.shape[1]
            cases.append({
                "name": f"{name} ({model})",
                "model": model,
                "segments": segments,
                "spatialMergeSize": merge,
                "tokensPerSecond": tokens_per_second,
                "inputIds": input_ids[0].tolist(),
                "positions": position_ids[:, 0, :].tolist(),
                "ropeDelta": int(deltas.reshape(-1)[0]),
                # the first generated token's id: cache position seq_len plus the delta
                "nextPosition": seq_len + int(deltas.reshape(-1)[0]),
            })
    out = {
        "generator": "scripts/make_golden_mrope_positions.py (transformers' Qwen2-VL and Qwen2.5-VL "
                     "get_rope_index at 00b676f8, transcribed verbatim)",
        "torch": torch.__version__,
        "cases": cases,
    }
    path = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "mrope-positions.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
